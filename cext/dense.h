/* The network's one dense kernel (model.pxd): out[j] += sum over k < n of a[k] * w[rows[k] * width + j], four rows
 * at a time, so that `out` is loaded and stored once for every four rows rather than for each.
 *
 * Where GCC can dispatch at load time (x86-64 Linux), it is compiled twice, for AVX2 (eight floats at a time) and
 * for any x86-64 (SSE2, four), and the machine picks. AVX2 here brings no fused multiply-add, so both compute each
 * output with the same operations in the same order: a machine's choice changes no result, only the speed. A
 * sanitized build (BORABORA_SANITIZE=1) has the one version: AddressSanitizer starts after the choice is made. */
#ifndef BORABORA_DENSE_H
#define BORABORA_DENSE_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__SANITIZE_ADDRESS__)
#define DENSE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define DENSE_CLONES
#endif

DENSE_CLONES
static void add_rows(float *out, const float *w, int width, const int *rows, const float *a, int n) {
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        const float *r0 = w + (long)rows[k] * width, *r1 = w + (long)rows[k + 1] * width;
        const float *r2 = w + (long)rows[k + 2] * width, *r3 = w + (long)rows[k + 3] * width;
        const float a0 = a[k], a1 = a[k + 1], a2 = a[k + 2], a3 = a[k + 3];
        for (int j = 0; j < width; j++)
            out[j] += a0 * r0[j] + a1 * r1[j] + a2 * r2[j] + a3 * r3[j];
    }
    for (; k < n; k++) {
        const float *r0 = w + (long)rows[k] * width;
        const float a0 = a[k];
        for (int j = 0; j < width; j++)
            out[j] += a0 * r0[j];
    }
}

#endif
