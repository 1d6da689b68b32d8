/* A stand-in for libnvidia-ml.so.1 that answers with values fixed at
 * compile time (-DFAKE_...), so the NVML loading code runs without a GPU.
 * Signatures follow nvml.h. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>

#ifndef FAKE_INIT_RC
#define FAKE_INIT_RC 0
#endif
#ifndef FAKE_HANG_INIT
#define FAKE_HANG_INIT 0
#endif
#ifndef FAKE_DRIVER
#define FAKE_DRIVER "550.54.14"
#endif
#ifndef FAKE_CUDA
#define FAKE_CUDA 12040
#endif
#ifndef FAKE_COUNT
#define FAKE_COUNT 2
#endif
#ifndef FAKE_NAME
#define FAKE_NAME "NVIDIA GeForce RTX 4090"
#endif
#ifndef FAKE_CC_MAJOR
#define FAKE_CC_MAJOR 8
#endif
#ifndef FAKE_CC_MINOR
#define FAKE_CC_MINOR 9
#endif
#ifndef FAKE_MEM_MIB
#define FAKE_MEM_MIB 24564ULL
#endif
#ifndef FAKE_BRAND
#define FAKE_BRAND 5 /* NVML_BRAND_GEFORCE */
#endif
#ifndef FAKE_NVLINKS
#define FAKE_NVLINKS 0 /* links per GPU; 0: NVLink not supported */
#endif
#ifndef FAKE_MIG
#define FAKE_MIG -1 /* -1: not supported, else current mode */
#endif

#define NVML_SUCCESS 0
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_INSUFFICIENT_SIZE 7

typedef struct { unsigned long long total, free, used; } nvmlMemory_t;
typedef struct {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;
typedef void *nvmlDevice_t;

static int idx(nvmlDevice_t d) { return (int)(uintptr_t)d - 1; }
static int valid(nvmlDevice_t d) { return idx(d) >= 0 && idx(d) < FAKE_COUNT; }

static int put(char *buf, unsigned int len, const char *s) {
    if (strlen(s) + 1 > len) return NVML_ERROR_INSUFFICIENT_SIZE;
    strcpy(buf, s);
    return NVML_SUCCESS;
}

const char *nvmlErrorString(int rc) {
    switch (rc) {
    case 0: return "Success";
    case 3: return "Not Supported";
    case 9: return "Driver Not Loaded";
    case 18: return "Driver/library version mismatch";
    case 999: return "Unknown Error";
    default: return "Error";
    }
}

int nvmlInit_v2(void) {
    if (FAKE_HANG_INIT) sleep(30);
    return FAKE_INIT_RC;
}
int nvmlShutdown(void) { return NVML_SUCCESS; }
int nvmlSystemGetDriverVersion(char *v, unsigned int len) { return put(v, len, FAKE_DRIVER); }
int nvmlSystemGetNVMLVersion(char *v, unsigned int len) { return put(v, len, "12." FAKE_DRIVER); }
int nvmlSystemGetCudaDriverVersion_v2(int *v) { *v = FAKE_CUDA; return NVML_SUCCESS; }
int nvmlDeviceGetCount_v2(unsigned int *n) { *n = FAKE_COUNT; return NVML_SUCCESS; }
int nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t *d) {
    if (i >= FAKE_COUNT) return NVML_ERROR_INVALID_ARGUMENT;
    *d = (nvmlDevice_t)(uintptr_t)(i + 1);
    return NVML_SUCCESS;
}
int nvmlDeviceGetName(nvmlDevice_t d, char *n, unsigned int len) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    return put(n, len, FAKE_NAME);
}
int nvmlDeviceGetUUID(nvmlDevice_t d, char *u, unsigned int len) {
    char s[64];
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    snprintf(s, sizeof s, "GPU-00000000-0000-0000-0000-00000000000%d", idx(d));
    return put(u, len, s);
}
int nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    *major = FAKE_CC_MAJOR;
    *minor = FAKE_CC_MINOR;
    return NVML_SUCCESS;
}
int nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    m->total = FAKE_MEM_MIB * 1024ULL * 1024ULL;
    m->used = 0;
    m->free = m->total;
    return NVML_SUCCESS;
}
int nvmlDeviceGetBrand(nvmlDevice_t d, int *b) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    *b = FAKE_BRAND;
    return NVML_SUCCESS;
}
int nvmlDeviceGetPersistenceMode(nvmlDevice_t d, int *p) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    *p = 1;
    return NVML_SUCCESS;
}
int nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int *cur, unsigned int *pending) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    if (FAKE_MIG < 0) return NVML_ERROR_NOT_SUPPORTED;
    *cur = FAKE_MIG;
    *pending = FAKE_MIG;
    return NVML_SUCCESS;
}
int nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *p) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    memset(p, 0, sizeof *p);
    p->bus = (unsigned int)idx(d) + 1;
    p->pciDeviceId = 0x268410de;
    snprintf(p->busId, sizeof p->busId, "00000000:%02X:00.0", p->bus);
    snprintf(p->busIdLegacy, sizeof p->busIdLegacy, "0000:%02X:00.0", p->bus);
    return NVML_SUCCESS;
}
int nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned int link, int *active) {
    if (!valid(d)) return NVML_ERROR_INVALID_ARGUMENT;
    if (FAKE_NVLINKS == 0) return NVML_ERROR_NOT_SUPPORTED;
    if (link >= FAKE_NVLINKS) return NVML_ERROR_INVALID_ARGUMENT;
    *active = 1;
    return NVML_SUCCESS;
}
