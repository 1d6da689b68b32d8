/* A fake CUDA driver (libcuda) for gpucompat's smoke tests: "device memory"
 * is host memory and the built-in GEMM kernel is computed on the CPU.
 * Behaviour is chosen by environment variables read at call time:
 *   FAKECUDA_INIT=<code>      cuInit returns <code>
 *   FAKECUDA_COUNT=<n>        number of GPUs (default 1)
 *   FAKECUDA_CTX=<code>       cuDevicePrimaryCtxRetain returns <code>
 *   FAKECUDA_ALLOC=<code>     cuMemAlloc_v2 returns <code>
 *   FAKECUDA_LOAD=<code>      cuModuleLoadData returns <code>
 *   FAKECUDA_WRONG=<device>   the kernel gets one element wrong on that GPU
 *   FAKECUDA_HANG=init|sync   cuInit / cuCtxSynchronize never return
 *   FAKECUDA_VERSION=<int>    cuDriverGetVersion (default 12040)
 * Built by the tests with `cc -shared -fPIC`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

typedef int CUresult;

static int env_int(const char *name, int dflt) {
    const char *v = getenv(name);
    return (v && *v) ? atoi(v) : dflt;
}

static int env_is(const char *name, const char *value) {
    const char *v = getenv(name);
    return v && strcmp(v, value) == 0;
}

static void hang(void) {
    for (;;) sleep(1000);
}

static int current_device = -1;
static int loaded_ptx = 0;

CUresult cuInit(unsigned flags) {
    if (flags != 0) return 1;
    if (env_is("FAKECUDA_HANG", "init")) hang();
    return env_int("FAKECUDA_INIT", 0);
}

CUresult cuDriverGetVersion(int *v) { *v = env_int("FAKECUDA_VERSION", 12040); return 0; }

CUresult cuDeviceGetCount(int *n) { *n = env_int("FAKECUDA_COUNT", 1); return 0; }

CUresult cuDeviceGet(int *d, int ordinal) {
    if (ordinal < 0 || ordinal >= env_int("FAKECUDA_COUNT", 1)) return 101;
    *d = ordinal;
    return 0;
}

CUresult cuDeviceGetName(char *name, int len, int dev) {
    snprintf(name, (size_t)len, "Fake GPU %d", dev);
    return 0;
}

CUresult cuDeviceGetAttribute(int *v, int attr, int dev) {
    (void)dev;
    if (attr == 75) { *v = 9; return 0; }
    if (attr == 76) { *v = 0; return 0; }
    return 1;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, int dev) {
    (void)dev;
    *bytes = (size_t)80 * 1024 * 1024 * 1024;
    return 0;
}

CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) {
    CUresult r = env_int("FAKECUDA_CTX", 0);
    if (r) return r;
    *ctx = (void *)(uintptr_t)(0x1000 + dev);
    return 0;
}

CUresult cuDevicePrimaryCtxRelease_v2(int dev) { (void)dev; return 0; }

CUresult cuCtxSetCurrent(void *ctx) {
    current_device = ctx ? (int)((uintptr_t)ctx - 0x1000) : -1;
    return 0;
}

CUresult cuCtxSynchronize(void) {
    if (current_device < 0) return 201;
    if (env_is("FAKECUDA_HANG", "sync")) hang();
    return 0;
}

CUresult cuMemAlloc_v2(uint64_t *p, size_t bytes) {
    CUresult r = env_int("FAKECUDA_ALLOC", 0);
    if (r) return r;
    if (current_device < 0) return 201;
    /* Uninitialised, like device memory: fill with a NaN pattern. */
    void *m = malloc(bytes);
    if (!m) return 2;
    memset(m, 0xff, bytes);
    *p = (uint64_t)(uintptr_t)m;
    return 0;
}

CUresult cuMemFree_v2(uint64_t p) { free((void *)(uintptr_t)p); return 0; }

CUresult cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t n) {
    memcpy((void *)(uintptr_t)dst, src, n);
    return 0;
}

CUresult cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t n) {
    memcpy(dst, (const void *)(uintptr_t)src, n);
    return 0;
}

CUresult cuModuleLoadData(void **m, const void *image) {
    CUresult r = env_int("FAKECUDA_LOAD", 0);
    if (r) return r;
    /* Only the built-in kernel is "compiled". */
    if (!strstr((const char *)image, ".entry gpucompat_hgemm(")) return 218;
    loaded_ptx = 1;
    *m = (void *)0x2000;
    return 0;
}

CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
    if (m != (void *)0x2000 || strcmp(name, "gpucompat_hgemm") != 0) return 500;
    *f = (void *)0x3000;
    return 0;
}

CUresult cuModuleUnload(void *m) { (void)m; loaded_ptx = 0; return 0; }

float fake_half_to_float(uint16_t h) {
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

/* gpucompat_hgemm(const half *a, const half *b, float *c, unsigned n), row-major,
 * one "thread" per element of C, honouring the launch geometry. */
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, void *stream, void **params, void **extra) {
    (void)stream; (void)extra;
    if (f != (void *)0x3000 || !loaded_ptx) return 400;
    if (gz != 1 || bz != 1 || shared != 0 || !params) return 1;
    const uint16_t *a = (const uint16_t *)(uintptr_t)*(uint64_t *)params[0];
    const uint16_t *b = (const uint16_t *)(uintptr_t)*(uint64_t *)params[1];
    float *c = (float *)(uintptr_t)*(uint64_t *)params[2];
    unsigned n = *(unsigned *)params[3];
    for (unsigned row = 0; row < gy * by; row++) {
        for (unsigned col = 0; col < gx * bx; col++) {
            if (row >= n || col >= n) continue;
            float acc = 0.0f;
            for (unsigned k = 0; k < n; k++)
                acc += fake_half_to_float(a[row * n + k]) * fake_half_to_float(b[k * n + col]);
            c[row * n + col] = acc;
        }
    }
    if (getenv("FAKECUDA_WRONG") && env_int("FAKECUDA_WRONG", -1) == current_device) c[n + 3] += 1.0f;
    return 0;
}

static const char *names[][2] = {
    {"0", "CUDA_SUCCESS"}, {"100", "CUDA_ERROR_NO_DEVICE"}, {"999", "CUDA_ERROR_UNKNOWN"},
    {"802", "CUDA_ERROR_SYSTEM_NOT_READY"}, {"209", "CUDA_ERROR_NO_BINARY_FOR_GPU"},
};

CUresult cuGetErrorName(CUresult e, const char **s) {
    char buf[16];
    snprintf(buf, sizeof buf, "%d", e);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i][0], buf) == 0) { *s = names[i][1]; return 0; }
    return 1;
}

CUresult cuGetErrorString(CUresult e, const char **s) {
    if (e == 802) { *s = "system not yet initialized"; return 0; }
    return 1;
}
