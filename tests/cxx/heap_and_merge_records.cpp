// std::make_heap / std::sort_heap and std::inplace_merge on records mixing an int key with doubles (a
// probe found both wrong with no message, forward mode right):
//   heap_value:  at -Os the heap's sift-down is given `*(first + parent)` by value (24 bytes, byval) while
//                it moves other records over that memory: parameter and memory shared adjoints
//                (reverse 0 0 4 6 where 3 4 1 2 are right). Such structs are now copied first.
//   merge_value: the merge's memmove of records was taken for one of integers, the helper reading only
//                the keys through iterators (reverse 0 1 where 2 1 are right, -O1 to -O3).
//   Under -fno-strict-aliasing (no type tags), sort_heap's move of the first record over the last one
//   moved in the reverse sweep as integers: the last record's key, read through a pointer walking back,
//   and a byte offset computed on the way were taken for a view of the whole record (0 for three
//   components). A field read of each element, or a constant byte offset, says nothing of the rest now.
// Gradients against tangents along each unit direction (1e-12) and central differences (1e-6), at -O2,
// -Os and -O0, and at -O2 with -fno-strict-aliasing.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -Os -I%S/../include %s -o %ts && %ts
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
// RUN: %parad-cxx %cflags -fno-strict-aliasing %s -o %tl && %tl
#include <algorithm>
#include <vector>
#include "check.h"

extern "C" double __parad_autodiff(void *, ...);
extern "C" double __parad_fwddiff(void *, ...);

enum { N = 4 };

struct Rec {
  int key;
  double w;
  char c;
};

static double heap_value(const double *x) {
  std::vector<Rec> v;
  for (int i = 0; i < N; i++) v.push_back(Rec{(i * 3) % N, x[i] * x[i], 'a'});
  auto less = [](const Rec &a, const Rec &b) { return a.key < b.key; };
  std::make_heap(v.begin(), v.end(), less);
  std::sort_heap(v.begin(), v.end(), less);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * v[i].w;
  return s;
}

struct Keyed {
  int k;
  double d;
};

static double merge_value(const double *x) {
  std::vector<Keyed> v(N);
  for (int i = 0; i < N; i++) v[i] = Keyed{i < 2 ? 2 * i + 1 : 2 * (i - 2), x[i]};
  std::inplace_merge(v.begin(), v.begin() + 2, v.end(), [](const Keyed &a, const Keyed &b) { return a.k < b.k; });
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * v[i].d * v[i].d;
  return s;
}

int main() {
  const double x[N] = {0.7, -1.2, 0.4, 1.9};
  CHECK_GRADIENT(heap_value, x, N, 1e-12, 1e-5, 1e-6);
  CHECK_GRADIENT(merge_value, x, N, 1e-12, 1e-5, 1e-6);
  return check_done();
}
