// cuSPARSE / cuBLAS counterparts of CUDA_CHECK (only for sources built where those libraries exist).
#pragma once
#include <cublas_v2.h>
#include <cusparse.h>
#include "check.cuh"

#define CUSPARSE_CHECK(call)                                                                                    \
  do {                                                                                                          \
    cusparseStatus_t spb_st_ = (call);                                                                          \
    if (spb_st_ != CUSPARSE_STATUS_SUCCESS) ::spb::fail("cuSPARSE", #call, cusparseGetErrorString(spb_st_), __FILE__, __LINE__); \
  } while (0)

#define CUBLAS_CHECK(call)                                                                                       \
  do {                                                                                                           \
    cublasStatus_t spb_st_ = (call);                                                                             \
    if (spb_st_ != CUBLAS_STATUS_SUCCESS) ::spb::fail("cuBLAS", #call, cublasGetStatusString(spb_st_), __FILE__, __LINE__); \
  } while (0)
