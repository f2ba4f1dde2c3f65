// CI compile check (runtime headers only): instantiates our SpGEMM kernels and host code for f32 and f64.
// The cuSPARSE peer is left out on purpose: its headers exist only on the GPU machine.
#include "../spgemm/hash_spgemm.cuh"

template class spb::spgemm::HashSpgemm<float>;
template class spb::spgemm::HashSpgemm<double>;
