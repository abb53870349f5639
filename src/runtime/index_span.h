/* The range of addresses a gather through an index array reads (index_span.c): shared by a region's
 * gathers (omp.c) and a serial loop's snapshots, which must not need OpenMP's runtime to link. */
#ifndef PARAD_INDEX_SPAN_H
#define PARAD_INDEX_SPAN_H

#include <stddef.h>

/* The least and most of the n indices at `at`, each `size` bytes, signed or not. */
void __parad_rt_index_least_most(const void *at, size_t n, unsigned size, unsigned is_signed, long long *least, long long *most);

/* The addresses [out[0], out[1]) a gather base + scale * index + [from, to) reads for indices least..most. */
void __parad_rt_gathered_span(unsigned long long base, long long scale, long long from, long long to, long long least,
                              long long most, unsigned long long *out);

#endif
