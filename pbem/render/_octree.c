/* The board pictures' palette, as Pillow's fast octree quantizer makes it (`Image.quantize(256,
 * method=FASTOCTREE, dither=NONE)` of an RGB picture), from the picture's RGBA (or RGB) bytes: the same palette
 * and the same indices, so the same PNG, without Pillow's copies of the picture (to RGB, to its own pixel array,
 * to a 32-bit index array: ~2.3 ms of a stage picture's ~4.2). tests/test_render_octree.py checks it against
 * Pillow.
 *
 * The method: colours are counted in a fine cube (16 levels a channel) and a coarse one (4 levels); the palette
 * is every coarse bucket still holding pixels once the most used fine buckets are taken out, then those fine
 * buckets, each entry the mean of its pixels. A pixel takes the entry of its fine bucket, or else of its coarse
 * one. Ties between buckets of one count are ordered by the C library's qsort, as in Pillow.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FINE 4096   /* 16 x 16 x 16 */
#define COARSE 64   /* 4 x 4 x 4 */

/* Pillow's bucket, field for field: qsort moves buckets of this size */
typedef struct {
    uint32_t count;
    uint64_t r, g, b, a;
} Bucket;

typedef struct {
    unsigned char r, g, b;
} Colour;

static int
by_count(const void *x, const void *y) {
    return ((const Bucket *)y)->count - ((const Bucket *)x)->count;
}

static unsigned char
clip8(int value) {
    return value < 0 ? 0 : value > 255 ? 255 : (unsigned char)value;
}

/* a bucket's mean colour (single precision, truncated, as Pillow computes it) */
static Colour
mean(const Bucket *bucket) {
    Colour colour = {0, 0, 0};
    float count = bucket->count;
    if (count != 0) {
        colour.r = clip8((int)(bucket->r / count));
        colour.g = clip8((int)(bucket->g / count));
        colour.b = clip8((int)(bucket->b / count));
    }
    return colour;
}

static int
fine_of(unsigned r, unsigned g, unsigned b) {
    return (r >> 4) << 8 | (g >> 4) << 4 | (b >> 4);
}

static int
coarse_of(unsigned r, unsigned g, unsigned b) {
    return (r >> 6) << 4 | (g >> 6) << 2 | (b >> 6);
}

/* the coarse bucket holding fine bucket `fine` */
static int
coarse_of_fine(int fine) {
    return ((fine >> 10) & 3) << 4 | ((fine >> 6) & 3) << 2 | ((fine >> 2) & 3);
}

static unsigned long
used(const Bucket *cube, int size) {
    unsigned long count = 0;
    for (int i = 0; i < size; i++) {
        count += cube[i].count > 0;
    }
    return count;
}

/* the fine buckets `taken` out of the coarse bucket holding each one's mean */
static void
take_out(Bucket *coarse, const Bucket *taken, long count) {
    for (long i = 0; i < count; i++) {
        if (taken[i].count == 0) {
            continue;
        }
        Colour colour = mean(&taken[i]);
        Bucket *from = &coarse[coarse_of(colour.r, colour.g, colour.b)];
        from->count -= taken[i].count;
        from->r -= taken[i].r;
        from->g -= taken[i].g;
        from->b -= taken[i].b;
        from->a -= taken[i].a;
    }
}

static PyObject *
quantize(PyObject *self, PyObject *args) {
    Py_buffer pixels;
    unsigned long colours;
    int size = 4; /* bytes a pixel: RGBA (alpha ignored), or 3: RGB */
    if (!PyArg_ParseTuple(args, "y*k|i", &pixels, &colours, &size)) {
        return NULL;
    }
    if ((size != 3 && size != 4) || pixels.len % size || colours < 1 || colours > 256) {
        PyBuffer_Release(&pixels);
        PyErr_SetString(PyExc_ValueError, "RGBA or RGB bytes and 1 to 256 colours expected");
        return NULL;
    }
    Py_ssize_t count = pixels.len / size;
    const unsigned char *rgba = pixels.buf;
    PyObject *indices = PyBytes_FromStringAndSize(NULL, count);
    Bucket *fine = calloc(FINE, sizeof(Bucket)), *sorted = malloc(FINE * sizeof(Bucket));
    Bucket coarse[COARSE] = {{0}}, sorted_coarse[COARSE], palette[256];
    uint32_t lookup[FINE], coarse_lookup[COARSE] = {0};
    if (!indices || !fine || !sorted) {
        Py_XDECREF(indices);
        free(fine);
        free(sorted);
        PyBuffer_Release(&pixels);
        return PyErr_NoMemory();
    }

    Py_BEGIN_ALLOW_THREADS
    /* counted a run of one colour at a time: a board is mostly runs, and adding pixel by pixel to one bucket
       waits on the addition before */
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 1; i <= count; i++) {
        const unsigned char *p = rgba + size * start, *q = rgba + size * i;
        if (i < count && q[0] == p[0] && q[1] == p[1] && q[2] == p[2]) {
            continue;
        }
        uint32_t run = (uint32_t)(i - start);
        Bucket *bucket = &fine[fine_of(p[0], p[1], p[2])];
        bucket->count += run;
        bucket->r += (uint64_t)run * p[0];
        bucket->g += (uint64_t)run * p[1];
        bucket->b += (uint64_t)run * p[2];
        bucket->a += (uint64_t)run * 255; /* an RGB picture's pixels are opaque */
        start = i;
    }
    for (int i = 0; i < FINE; i++) {
        Bucket *to = &coarse[coarse_of_fine(i)];
        to->count += fine[i].count;
        to->r += fine[i].r;
        to->g += fine[i].g;
        to->b += fine[i].b;
        to->a += fine[i].a;
    }
    unsigned long n_coarse = used(coarse, COARSE);
    if (n_coarse > colours) {
        n_coarse = colours;
    }
    unsigned long n_fine = colours - n_coarse;
    memcpy(sorted, fine, FINE * sizeof(Bucket));
    qsort(sorted, FINE, sizeof(Bucket), by_count);
    take_out(coarse, sorted, n_fine);
    while (n_coarse > used(coarse, COARSE)) { /* coarse buckets emptied: room for more fine ones */
        unsigned long taken = n_fine;
        n_coarse = used(coarse, COARSE);
        n_fine = colours - n_coarse;
        take_out(coarse, &sorted[taken], n_fine - taken);
    }
    memcpy(sorted_coarse, coarse, sizeof coarse);
    qsort(sorted_coarse, COARSE, sizeof(Bucket), by_count);
    memcpy(palette, sorted_coarse, n_coarse * sizeof(Bucket));
    memcpy(&palette[n_coarse], sorted, n_fine * sizeof(Bucket));

    /* each coarse bucket's entry, then each fine bucket's over it (the lowest entry wins a bucket) */
    for (long i = (long)n_coarse - 1; i >= 0; i--) {
        Colour colour = mean(&palette[i]);
        coarse_lookup[coarse_of(colour.r, colour.g, colour.b)] = (uint32_t)i;
    }
    for (int i = 0; i < FINE; i++) {
        lookup[i] = coarse_lookup[coarse_of_fine(i)];
    }
    for (long i = (long)(n_coarse + n_fine) - 1; i >= (long)n_coarse; i--) {
        Colour colour = mean(&palette[i]);
        lookup[fine_of(colour.r, colour.g, colour.b)] = (uint32_t)i;
    }
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(indices);
    for (Py_ssize_t i = 0; i < count; i++) {
        const unsigned char *p = rgba + size * i;
        out[i] = (unsigned char)lookup[fine_of(p[0], p[1], p[2])];
    }
    Py_END_ALLOW_THREADS

    free(fine);
    free(sorted);
    PyBuffer_Release(&pixels);
    unsigned char entries[256 * 3];
    for (unsigned long i = 0; i < colours; i++) {
        Colour colour = mean(&palette[i]);
        entries[3 * i] = colour.r;
        entries[3 * i + 1] = colour.g;
        entries[3 * i + 2] = colour.b;
    }
    PyObject *result = Py_BuildValue("Ny#", indices, (const char *)entries, (Py_ssize_t)(3 * colours));
    return result;
}

static PyMethodDef methods[] = {
    {"quantize", quantize, METH_VARARGS,
     "quantize(pixels, colours, size=4) -> (indices, palette): an RGBA picture's bytes (alpha ignored), or an RGB "
     "one's (size 3), in `colours` colours, as Pillow's fast octree quantizer maps the picture in RGB: an index a "
     "pixel, three bytes an entry."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_octree", NULL, -1, methods};

PyMODINIT_FUNC
PyInit__octree(void) {
    return PyModule_Create(&module);
}
