// cuSPARSE / cuBLAS counterpart of CUDA_CHECK (only for sources built where those libraries exist):
// LIB_CHECK(call) takes any cuSPARSE or cuBLAS call (the status type picks the library) and throws
// spb::CudaError naming the library, the call, the status (name: text), the file and the line.
// Each library's half is there where its header is (the SpGEMM driver is built with cuSPARSE only).
#pragma once
#include <string>
#include "check.cuh"
#if __has_include(<cusparse.h>)
#include <cusparse.h>
#endif
#if __has_include(<cublas_v2.h>)
#include <cublas_v2.h>
#endif

namespace spb {
// The status as "NAME: text" (e.g. "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES: insufficient resources"),
// also for reports that do not throw.
#if __has_include(<cusparse.h>)
inline std::string status_text(cusparseStatus_t st) { return std::string(cusparseGetErrorName(st)) + ": " + cusparseGetErrorString(st); }
inline void check_status(cusparseStatus_t st, const char* call, const char* file, int line) {
  if (st != CUSPARSE_STATUS_SUCCESS) fail("cuSPARSE", call, status_text(st), file, line);
}
#endif
#if __has_include(<cublas_v2.h>)
inline std::string status_text(cublasStatus_t st) { return std::string(cublasGetStatusName(st)) + ": " + cublasGetStatusString(st); }
inline void check_status(cublasStatus_t st, const char* call, const char* file, int line) {
  if (st != CUBLAS_STATUS_SUCCESS) fail("cuBLAS", call, status_text(st), file, line);
}
#endif
}  // namespace spb

#define LIB_CHECK(call) ::spb::check_status((call), #call, __FILE__, __LINE__)
