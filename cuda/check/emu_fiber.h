// User-space fibers for the host emulations of CUDA kernels (emu/cuda_runtime.h for SpMM, emu_spgemm/cuda_emu.h for
// SpGEMM): a block's threads run as fibers on one OS thread, so a barrier is a switch back to the scheduler, not a
// kernel-mode context switch (one std::thread per CUDA thread spent most of the run in the kernel). Each emulation
// keeps its own scheduler (which fiber runs next, when a barrier opens); this is the switch, the stacks and the
// start / resume / yield they share.
#pragma once
#include <sys/mman.h>
#include <ucontext.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
namespace spb::fiber {
// x86-64: a switch saves the callee-saved registers on the fiber's stack and swaps stack pointers (glibc's
// swapcontext also makes a sigprocmask system call each time, which at two switches a thread a barrier is most
// of the run); elsewhere ucontext.
#if defined(__x86_64__)
extern "C" void spb_emu_switch(void** save_sp, void* to_sp);
asm(R"(.pushsection .text
.weak spb_emu_switch
.type spb_emu_switch, @function
spb_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
.size spb_emu_switch, .-spb_emu_switch
.popsection)");
struct Ctx { void* sp; };
inline void swap(Ctx& from, Ctx& to) { spb_emu_switch(&from.sp, to.sp); }
// The first switch pops six zero registers and returns into entry, with the stack aligned as after a call.
inline void make(Ctx& c, char* stack, size_t size, void (*entry)()) {
  void** top = (void**)((uintptr_t(stack + size) & ~uintptr_t(15)) - 8);
  *top = nullptr;  // entry's return address: it never returns
  *--top = (void*)entry;
  for (int i = 0; i < 6; ++i) *--top = nullptr;
  c.sp = top;
}
#else
struct Ctx { ucontext_t uc; };
inline void swap(Ctx& from, Ctx& to) { swapcontext(&from.uc, &to.uc); }
inline void make(Ctx& c, char* stack, size_t size, void (*entry)()) {
  getcontext(&c.uc);
  c.uc.uc_stack.ss_sp = stack; c.uc.uc_stack.ss_size = size; c.uc.uc_link = nullptr;
  makecontext(&c.uc, entry, 0);
}
#endif
inline Ctx sched;                // the scheduler's, which every fiber switches back to
inline Ctx* cur = nullptr;       // the running fiber's (null: the scheduler runs)
inline bool cur_done = false;    // set by a fiber whose body returned
inline const std::function<void()>* body = nullptr;  // what every fiber of the launch runs (threadIdx set by the scheduler)
[[noreturn]] inline void fiber_main() {
  (*body)();
  cur_done = true;
  swap(*cur, sched);  // never resumed
  std::abort();
}
// Stacks: one mapping kept across launches (untouched pages cost nothing), a guard page under each stack so an
// overflow faults instead of writing over the next fiber's.
constexpr size_t kStack = 256 * 1024, kGuard = 4096;
inline char* stack_pool = nullptr;
inline unsigned stack_n = 0;
// Fiber i (i < n) starts body afresh on stack i at its next resume.
inline void start(Ctx& c, unsigned i, unsigned n) {
  if (stack_n < n) {
    if (stack_pool) munmap(stack_pool, stack_n * (kStack + kGuard));
    stack_n = n;
    stack_pool = (char*)mmap(nullptr, stack_n * (kStack + kGuard), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (stack_pool == MAP_FAILED) { std::perror("emu: mmap fiber stacks"); std::abort(); }
    for (unsigned t = 0; t < stack_n; ++t) mprotect(stack_pool + t * (kStack + kGuard), kGuard, PROT_NONE);
  }
  make(c, stack_pool + i * (kStack + kGuard) + kGuard, kStack, fiber_main);
}
// Runs c until it yields or returns; true when its body returned.
inline bool resume(Ctx& c) {
  cur = &c;
  cur_done = false;
  swap(sched, c);
  cur = nullptr;
  return cur_done;
}
inline void yield() { swap(*cur, sched); }
// Where a thread waits: the __syncthreads it reached (id: __COUNTER__, one a __syncthreads in the source; file and
// line for the message). The GPU's __syncthreads is bar.sync .aligned: every thread of a warp must reach the same one,
// and a warp split between two can hang the block (a staged kernel's idle rows once did on the H100). Both
// emulations record a site a waiting thread and call warp_split before a barrier opens.
struct Site {
  const char* file = nullptr;
  int line = 0, id = 0;
};
// Stops when two waiting threads of one warp (threads waiting(t) of site[0 .. n)) wait at different __syncthreads.
template <class Waiting>
inline void warp_split(const Site* site, unsigned n, Waiting waiting, unsigned bx, unsigned by) {
  for (unsigned w0 = 0; w0 < n; w0 += 32) {
    int f = -1;
    for (unsigned t = w0; t < n && t < w0 + 32; ++t) {
      if (!waiting(t)) continue;
      if (f < 0) { f = int(t); continue; }
      const Site &a = site[f], &b = site[t];
      if (a.id != b.id) {
        std::fflush(stdout);  // the cases done so far, before the message
        std::fprintf(stderr, "emu: block (%u,%u), warp %u: thread %d waits at the __syncthreads of %s:%d, thread %u at %s:%d (a warp split between two barriers)\n",
                     bx, by, w0 / 32, f, a.file, a.line, t, b.file, b.line);
        std::abort();
      }
    }
  }
}
}  // namespace spb::fiber
