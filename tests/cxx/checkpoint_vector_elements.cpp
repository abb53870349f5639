// A checkpointed loop over a std::vector of structs: each element, reached through operator[], is a base
// of its own for the steps' notes, and a store site keeps hulls for four. Cycling through eight elements,
// each step gave a hull way and logged the next element's bytes into every live snapshot again, and the
// list of hulls given way grew by eight a step: the snapshots took T^2 memory and time (45 MB and 0.9 s
// at T = 400, 537 MB and 21 s at 1600; 0.3 MB and under 2 ms with a plain array). A hull given way is now
// taken back when its bytes come round again. The gradient is checked against its closed form
// (relative 1e-12) at T = 100 and 400, and the peak of tape and snapshots must grow linearly: at most
// 6 times from T = 100 to 400 (it was 16). At -O2 and -O0.
// RUN: %parad-cxx %cflags %s -o %t && %t
// RUN: %parad-cxx -O0 -I%S/../include %s -o %t0 && %t0
#include <vector>
#include "check.h"
#include "parad.h"

struct Body {
  double p[3], v[3];
};
static int T = 100;

static double loss(const double *k) {
  std::vector<Body> b(8);
  for (int i = 0; i < 8; i++) b[i] = Body{{0.1 * i, 0, 0}, {0, 0.1 * i, 0}};
  for (int t = 0; t < T; t++) {
    __parad_checkpoint_loop();
    for (int i = 0; i < 8; i++)
      for (int c = 0; c < 3; c++) b[i].p[c] += 0.01 * k[0] * b[i].v[c];
  }
  double l = 0;
  for (int i = 0; i < 8; i++) l += b[i].p[1] * b[i].p[1];
  return l;
}

int main() {
  size_t peak[2];
  int steps[2] = {100, 400};
  for (int r = 0; r < 2; r++) {
    T = steps[r];
    double k[1] = {2}, g[1] = {0};
    __parad_autodiff((void *)loss, k, g);
    peak[r] = parad_tape_peak_bytes();
    /* p_i1 = 0.01 k T 0.1 i: l = sum_i (0.001 k T i)^2 = 140 (0.001 T)^2 k^2, dl/dk = 280 (0.001 T)^2 k */
    CHECK_CLOSE(g[0], 280 * 1e-6 * T * T * k[0], 1e-12);
  }
  CHECK_CLOSE(peak[1] <= 6 * peak[0] ? 1.0 : 0.0, 1.0, 0);
  if (peak[1] > 6 * peak[0]) printf("peak bytes %zu at T = 100, %zu at T = 400\n", peak[0], peak[1]);
  return check_done();
}
