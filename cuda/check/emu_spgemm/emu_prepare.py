#!/usr/bin/env python3
"""Rewrites cuda/ (the spgemm headers and what they include) into OUT/cuda for the host emulation (cuda_emu.h):
kernel launches k<<<grid, block, smem, stream>>>(args); become EMU_LAUNCH(grid, block, smem, stream, k(args));,
`extern __shared__ T name[];` a pointer into the emulated dynamic shared memory, `__shared__` a static (blocks run
one at a time), CUB's scan and the CUDA runtime header the emulation's (cuda_emu.h, with cuda/check/emu_fiber.h
beside it).  Usage: emu_prepare.py REPO OUT"""
import os, re, shutil, sys

repo, out = sys.argv[1], sys.argv[2]
launch = re.compile(r'(\b[\w:]+(?:<[\w ]*(?:<[\w ]*>)?[\w ]*>)?)<<<(.*?)>>>\((.*?)\);', re.S)  # k, k<T>, k<Tab<T>>
ext = re.compile(r'extern\s+__shared__\s+(?:__align__\(\d+\)\s+)?([\w ]+?)\s+(\w+)\[\];')

def split_top(s):
    parts, depth, cur = [], 0, ''
    for ch in s:
        if ch in '([{': depth += 1
        if ch in ')]}': depth -= 1
        if ch == ',' and depth == 0: parts.append(cur.strip()); cur = ''
        else: cur += ch
    parts.append(cur.strip())
    return parts

def rewrite(text):
    def l(m):
        cfg = split_top(m.group(2))
        cfg += ['0', 'nullptr'][len(cfg) - 2:]
        return 'EMU_LAUNCH(%s, %s(%s));' % (', '.join('(%s)' % c for c in cfg), m.group(1), m.group(3))
    text = launch.sub(l, text)
    text = ext.sub(lambda m: '%s* %s = reinterpret_cast<%s*>(emu_dyn_smem);' % (m.group(1), m.group(2), m.group(1)), text)
    text = re.sub(r'\b__shared__\s+', 'static ', text)
    text = text.replace('#include <cub/device/device_scan.cuh>', '')
    text = text.replace('#include <cuda_runtime.h>', '#include "cuda_emu.h"')
    return text

src = os.path.join(repo, 'cuda')
dst = os.path.join(out, 'cuda')
shutil.rmtree(dst, ignore_errors=True)
for d in ['common', 'spgemm']:
    os.makedirs(os.path.join(dst, d), exist_ok=True)
    for f in os.listdir(os.path.join(src, d)):
        if f.endswith(('.cuh', '.hpp')):
            with open(os.path.join(src, d, f)) as fh: t = fh.read()
            with open(os.path.join(dst, d, f), 'w') as fh: fh.write(rewrite(t) if f.endswith('.cuh') else t)
here = os.path.dirname(os.path.abspath(__file__))
for d in ['common', 'spgemm']:  # cuda_emu.h and the fibers it runs threads on (cuda/check/emu_fiber.h, shared with SpMM's)
    shutil.copy(os.path.join(here, 'cuda_emu.h'), os.path.join(dst, d, 'cuda_emu.h'))
    shutil.copy(os.path.join(here, '..', 'emu_fiber.h'), os.path.join(dst, d, 'emu_fiber.h'))
