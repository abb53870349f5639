// A std::vector the caller passes by reference, grown inside the differentiated function: the elements
// move to a new block and the caller's old block is deleted. The caller's shadow vector then leads to the
// new shadow block, which must hold the adjoints of the old contents (they used to be freed with the old
// shadow: zeros, no message). Shapes:
//   grow_once    one push_back past the capacity, then E = sum_i (i+1) v_i^2
//   grow_twice   several push_backs (the elements move through two blocks the derivative allocated)
//   grow_plain   the same in a loop whose counter is used for nothing but counting: a time loop as
//                automatic checkpointing takes it, so the file has a checkpointed loop's twin; with one,
//                the shadows of new's blocks were made by calloc and the runtime freed the caller's shadow
//                with free (valgrind's mismatched frees): made by new, and freed by delete, now
//   copy_first   a copy w = v made before the growth (the copy's block is a temporary: nothing goes there)
//   records      std::vector<Rec> of {double, int, double} (the copy moves floats and integers together)
//   floats       std::vector<float>
//   insert_front v.insert(v.begin(), y): the old elements land one place further on, and so do their
//                adjoints in the caller's shadow (the adjoint of v_i is dv[i + 1] after the call)
//   tangent      grow_once in forward mode: the tangent vector grows with it (its old block deleted by
//                the derivative, its new one, made by the derivative, deleted by the caller's vector)
// Each gradient against the analytic one (1e-12; 1e-5 for float), the dy part too, and the old contents'
// gradient against central finite differences (h = 1e-6, 1e-6); the tangent against the analytic one
// (1e-12). At -O2, -O0 and -Os (the records' relocation a function of its own there, moved by byte
// counts: tests/rev/struct_arrays_by_bytes.c). Under valgrind, no error: the shadows of blocks C++'s new made are made and
// freed with new and delete, as the caller's vectors make and free theirs.
// RUN: %parad-cxx %cflags %s -o %t && %t && valgrind -q --error-exitcode=9 %t > /dev/null
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0 && valgrind -q --error-exitcode=9 %t0 > /dev/null
// RUN: %parad-cxx -Os -I%S/../include %s -o %ts && %ts
#include <vector>
#include "parad.h"
#include "check.h"

static double grow_once(std::vector<double> &v, double y) {
  v.push_back(y);
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += (i + 1) * v[i] * v[i];
  return s;
}

static double grow_twice(std::vector<double> &v, double y) {
  for (int k = 0; k < 5; k++) v.push_back(y * (k + 1));
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += (i + 1) * v[i] * v[i];
  return s;
}

static double grow_plain(std::vector<double> &v, double y) {
  for (int k = 0; k < 5; k++) v.push_back(y);
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += (i + 1) * v[i] * v[i];
  return s;
}

static double copy_first(std::vector<double> &v, double y) {
  std::vector<double> w = v;
  v.push_back(y);
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += (i + 1) * v[i] * w[i % w.size()];
  return s;
}

struct Rec {
  double a;
  int tag;
  double b;
};

static double records(std::vector<Rec> &v, double y) {
  v.push_back(Rec{y, 7, 2 * y});
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += (v[i].tag + 1) * v[i].a * v[i].b;
  return s;
}

static float floats(std::vector<float> &v, float y) {
  v.push_back(y);
  float s = 0;
  for (size_t i = 0; i < v.size(); i++) s += (i + 1) * v[i] * v[i];
  return s;
}

static double insert_front(std::vector<double> &v, double y) {
  v.insert(v.begin(), y);
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += (i + 1) * v[i] * v[i];
  return s;
}

typedef double (*Fn)(std::vector<double> &, double);

/* The gradient of f at (v0, y) with v0 = {1, 2, 3} (capacity 3: the first push_back moves it); the adjoint
 * of v_i ends in dv[i + at]. */
static void check_doubles(Fn f, double (*analytic)(int, double, double), double y, size_t at) {
  std::vector<double> v = {1.0, 2.0, 3.0}, dv(3, 0.0);
  v.shrink_to_fit(), dv.shrink_to_fit();
  double dy = __enzyme_autodiff<double>((void *)f, enzyme_dup, &v, &dv, enzyme_out, y);
  for (int i = 0; i < 3; i++) {
    CHECK_CLOSE(dv[i + at], analytic(i, i + 1.0, y), 1e-12);
    double h = 1e-6;
    std::vector<double> p = {1.0, 2.0, 3.0}, m = {1.0, 2.0, 3.0};
    p[i] += h, m[i] -= h;
    CHECK_CLOSE((f(p, y) - f(m, y)) / (2 * h), dv[i + at], 1e-6);
  }
  std::vector<double> p = {1.0, 2.0, 3.0}, m = {1.0, 2.0, 3.0};
  double h = 1e-6;
  CHECK_CLOSE((f(p, y + h) - f(m, y - h)) / (2 * h), dy, 1e-6);
  CHECK_CLOSE(dv.size(), v.size(), 0);
  for (size_t i = 0; i < dv.size(); i++) /* the inserted elements' adjoints went to y */
    if (i < at || i >= at + 3) CHECK_CLOSE(dv[i], 0.0, 0);
}

static double once_dv(int i, double vi, double) { return 2 * (i + 1) * vi; }
static double front_dv(int i, double vi, double) { return 2 * (i + 2) * vi; }
static double copy_dv(int i, double vi, double y) { /* s = sum_{i<3} (i+1) v_i^2 + 4 y v_0 */
  return 2 * (i + 1) * vi + (i == 0 ? 4 * y : 0);
}

int main() {
  double y = 0.5;
  check_doubles(grow_once, once_dv, y, 0);
  check_doubles(grow_twice, once_dv, y, 0);
  check_doubles(grow_plain, once_dv, y, 0);
  check_doubles(copy_first, copy_dv, y, 0);
  check_doubles(insert_front, front_dv, y, 1);

  std::vector<Rec> r = {{1.0, 0, 0.5}, {2.0, 1, -1.0}}, dr(2, Rec{0, 0, 0});
  r.shrink_to_fit(), dr.shrink_to_fit();
  double dy = __enzyme_autodiff<double>((void *)records, enzyme_dup, &r, &dr, enzyme_out, y);
  double want_a[2] = {1 * 0.5, 2 * -1.0}, want_b[2] = {1 * 1.0, 2 * 2.0};
  for (int i = 0; i < 2; i++) {
    CHECK_CLOSE(dr[i].a, want_a[i], 1e-12);
    CHECK_CLOSE(dr[i].b, want_b[i], 1e-12);
    CHECK_CLOSE(dr[i].tag, 0, 0);
  }
  CHECK_CLOSE(dy, 8 * 4 * y, 1e-12);

  std::vector<float> vf = {1.0f, 2.0f, 3.0f}, dvf(3, 0.0f);
  vf.shrink_to_fit(), dvf.shrink_to_fit();
  float dyf = __enzyme_autodiff<float>((void *)floats, enzyme_dup, &vf, &dvf, enzyme_out, 0.5f);
  for (int i = 0; i < 3; i++) CHECK_CLOSE(dvf[i], 2 * (i + 1) * (i + 1.0), 1e-5);
  CHECK_CLOSE(dyf, 8 * 0.5, 1e-5);

  std::vector<double> v = {1.0, 2.0, 3.0}, tv = {0.5, -1.0, 2.0};
  v.shrink_to_fit(), tv.shrink_to_fit();
  double ty = 0.25, t = __enzyme_fwddiff<double>((void *)grow_once, enzyme_dup, &v, &tv, enzyme_dup, y, ty);
  double want = 2 * 4 * y * ty; /* the pushed element, the fourth */
  for (int i = 0; i < 3; i++) want += 2 * (i + 1) * (i + 1.0) * (i == 0 ? 0.5 : i == 1 ? -1.0 : 2.0);
  CHECK_CLOSE(t, want, 1e-12);
  CHECK_CLOSE(tv.size(), 4, 0);
  CHECK_CLOSE(tv[3], ty, 0);
  return check_done();
}
