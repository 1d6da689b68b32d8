/* A fake cuBLAS for gpucompat's smoke tests, over the fake libcuda's host
 * "device memory". Column-major, as cuBLAS is, so operand order is tested.
 *   FAKECUBLAS_CREATE=<status>  cublasCreate_v2 returns <status>
 *   FAKECUBLAS_GEMM=<status>    cublasGemmEx returns <status>
 *   FAKECUBLAS_MAJOR=<n>        cublasGetProperty(MAJOR_VERSION) (default 12)
 *   FAKECUBLAS_SCALE=<x>        multiply every result by x (a wrong GEMM)
 * Built by the tests with `cc -shared -fPIC`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int env_int(const char *name, int dflt) {
    const char *v = getenv(name);
    return (v && *v) ? atoi(v) : dflt;
}

static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float v;
    if (exp == 0) {
        v = (float)mant / 16777216.0f;
        return sign ? -v : v;
    }
    uint32_t bits = exp == 0x1f ? (sign | 0x7f800000u | (mant << 13))
                                : (sign | ((exp + 112) << 23) | (mant << 13));
    memcpy(&v, &bits, 4);
    return v;
}

int cublasCreate_v2(void **h) {
    int s = env_int("FAKECUBLAS_CREATE", 0);
    if (s) return s;
    *h = (void *)0x4000;
    return 0;
}

int cublasDestroy_v2(void *h) { return h == (void *)0x4000 ? 0 : 1; }

int cublasGetProperty(int type, int *value) {
    switch (type) {
    case 0: *value = env_int("FAKECUBLAS_MAJOR", 12); return 0;
    case 1: *value = 4; return 0;
    case 2: *value = 5; return 0;
    default: return 7;
    }
}

/* Only the combination gpucompat asks for: fp16 A and B, f32 C, f32 compute. */
int cublasGemmEx(void *h, int transa, int transb, int m, int n, int k, const void *alpha,
                 const void *A, int atype, int lda, const void *B, int btype, int ldb,
                 const void *beta, void *C, int ctype, int ldc, int compute, int algo) {
    (void)algo;
    int s = env_int("FAKECUBLAS_GEMM", 0);
    if (s) return s;
    if (h != (void *)0x4000) return 1;
    if (transa != 0 || transb != 0 || atype != 2 || btype != 2 || ctype != 0 || compute != 68)
        return 15;
    if (lda < m || ldb < k || ldc < m) return 7;
    const uint16_t *a = A, *b = B;
    float *c = C;
    float al = *(const float *)alpha, be = *(const float *)beta;
    const char *scale = getenv("FAKECUBLAS_SCALE");
    float sc = scale ? (float)atof(scale) : 1.0f;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float acc = 0.0f;
            for (int p = 0; p < k; p++)
                acc += half_to_float(a[i + p * lda]) * half_to_float(b[p + j * ldb]);
            float old = be == 0.0f ? 0.0f : c[i + j * ldc];
            c[i + j * ldc] = sc * (al * acc + be * old);
        }
    return 0;
}
