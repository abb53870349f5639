// MPI in C++ (built by mpicxx over parad-c++): a class holding its rank's part of a periodic 1-D field in
// std::vector storage, with ghost values exchanged with both neighbours by MPI_Sendrecv in a member
// function, a smoothing step, and the global objective by MPI_Allreduce. f(x, J): J = sum over all points of
// (u_i + 0.25 (u_{i-1} - 2 u_i + u_{i+1}))^2 sin(u_i), u the rank's x. Both modes against central finite
// differences over every value of every rank (h = 1e-6, 1e-7), the tangent against the gradient (1e-12),
// at 1 to 4 ranks.
// RUN: %mpicxx %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <cmath>
#include <vector>
#include "mpicheck.h"

extern "C" void __parad_autodiff(void *, ...);
extern "C" void __parad_fwddiff(void *, ...); /* f returns nothing: its tangent is J's shadow */

enum { N = 6 };

class Field {
 public:
  explicit Field(const double *x) : u_(N + 2) {
    for (int i = 0; i < N; i++) u_[i + 1] = x[i];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  void exchange() { /* ghosts: u_[0] from the left neighbour's last, u_[N+1] from the right's first */
    int left = (rank_ + size_ - 1) % size_, right = (rank_ + 1) % size_;
    MPI_Sendrecv(&u_[N], 1, MPI_DOUBLE, right, 0, &u_[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u_[1], 1, MPI_DOUBLE, left, 1, &u_[N + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  double local_objective() const {
    double s = 0;
    for (int i = 1; i <= N; i++) {
      double v = u_[i] + 0.25 * (u_[i - 1] - 2 * u_[i] + u_[i + 1]);
      s += v * v * std::sin(u_[i]);
    }
    return s;
  }

 private:
  std::vector<double> u_;
  int rank_ = 0, size_ = 1;
};

__attribute__((noinline)) static void f(double *x, double *J) {
  Field field(x);
  field.exchange();
  double s = field.local_objective();
  MPI_Allreduce(&s, J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

MPI_OBJECTIVE(objective, f)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  double x[N], v[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * i + 0.05 * rank, v[i] = std::cos(i + rank);
  MPI_CHECK_BOTH_MODES(f, objective, x, N, v, 1e-6, 1e-7);
  return mpi_check_done();
}
