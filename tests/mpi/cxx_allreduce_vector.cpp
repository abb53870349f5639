// MPI_Allreduce behind a C++ class: Comm wraps MPI_COMM_WORLD, with allreduce(std::vector<double> &) summing
// in place (MPI_IN_PLACE) and allreduce(const std::vector<double> &in, std::vector<double> &out) summing into
// a separate vector. Each rank holds N values x:
//   P_k = sum_ranks sum_i sin((k + 1) x_i)            (k < 3, in place),
//   G = sum_ranks (sum_i x_i^2, sum_i sin(x_i P_1))    (separate buffer, after the first sum),
//   J = sqrt(G_0) + G_1 / G_0 + 0.1 sum_k P_k^2         (the global norm of x, plus the rest).
// Reverse mode (J's adjoint 1 on rank 0 only) against central finite differences over every value of every
// rank (h = 1e-6, tolerance 1e-7); forward tangent along v against sum_ranks gradient . v (1e-12); the
// primal J against the plain one (1e-14); at 1 to 4 ranks.
// RUN: %mpicxx %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <cmath>
#include <vector>
#include "mpicheck.h"

extern "C" void __parad_autodiff(void *, ...);
extern "C" void __parad_fwddiff(void *, ...); /* f returns nothing: its tangent is J's shadow */

enum { N = 5, K = 3 };

class Comm {
 public:
  explicit Comm(MPI_Comm comm = MPI_COMM_WORLD) : comm_(comm) {}
  void allreduce(std::vector<double> &v) const {
    MPI_Allreduce(MPI_IN_PLACE, v.data(), (int)v.size(), MPI_DOUBLE, MPI_SUM, comm_);
  }
  void allreduce(const std::vector<double> &in, std::vector<double> &out) const {
    out.resize(in.size());
    MPI_Allreduce(in.data(), out.data(), (int)in.size(), MPI_DOUBLE, MPI_SUM, comm_);
  }

 private:
  MPI_Comm comm_;
};

__attribute__((noinline)) static void f(double *x, double *J) {
  Comm comm;
  std::vector<double> p(K, 0.0);
  for (int k = 0; k < K; k++)
    for (int i = 0; i < N; i++) p[k] += std::sin((k + 1) * x[i]);
  comm.allreduce(p);
  std::vector<double> s(2, 0.0), g;
  for (int i = 0; i < N; i++) s[0] += x[i] * x[i], s[1] += std::sin(x[i] * p[1]);
  comm.allreduce(s, g);
  double j = std::sqrt(g[0]) + g[1] / g[0];
  for (int k = 0; k < K; k++) j += 0.1 * p[k] * p[k];
  *J = j;
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.4 * std::sin(1.3 * i + rank) + 0.1 * rank + 0.2, v[i] = std::cos(0.7 * i - rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
