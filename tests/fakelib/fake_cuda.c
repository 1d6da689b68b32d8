/* A stand-in for libcuda.so.1: cuDriverGetVersion answers with values
 * fixed at compile time (-DFAKE_...). Signatures follow cuda.h. */
#ifndef FAKE_CUDA_RC
#define FAKE_CUDA_RC 0
#endif
#ifndef FAKE_CUDA_VERSION
#define FAKE_CUDA_VERSION 12040
#endif

int cuDriverGetVersion(int *v) {
    if (FAKE_CUDA_RC != 0) return FAKE_CUDA_RC;
    *v = FAKE_CUDA_VERSION;
    return 0;
}

int cuGetErrorName(int rc, const char **name) {
    switch (rc) {
    case 34: *name = "CUDA_ERROR_STUB_LIBRARY"; return 0;
    case 999: *name = "CUDA_ERROR_UNKNOWN"; return 0;
    default: return 1;
    }
}
