// Nonblocking halo exchange in a C++ class: Rod holds its rank's L cells of a periodic 1-D field in a
// std::vector with a ghost at each end; its member exchange() posts MPI_Irecv for both ghosts and MPI_Isend
// of both edge cells into a std::vector<MPI_Request>, completed by MPI_Waitall on its data(). T steps of
//   u_i <- u_i + c (u_{i-1} - 2 u_i + u_{i+1}) + 0.1 sin(u_i) u_i,
// then s = sum_i u_i^2 (1 + 0.1 i), summed by MPI_Reduce to rank 0 and sent back to every rank by MPI_Bcast:
// J = sum_ranks s, u = x at the start. At 1 rank both neighbours are the rank itself.
// Reverse mode (J's adjoint 1 on rank 0 only) against central finite differences over every value of every
// rank (h = 1e-6, tolerance 1e-7); forward tangent along v against sum_ranks gradient . v (1e-12); primal J
// against the plain one (1e-14); at 1 to 4 ranks.
// RUN: %mpicxx %cflags %s -o %t && %mpirun 1 %t && %mpirun 2 %t && %mpirun 3 %t && %mpirun 4 %t
#include <cmath>
#include <vector>
#include "mpicheck.h"

extern "C" void __parad_autodiff(void *, ...);
extern "C" void __parad_fwddiff(void *, ...); /* rod returns nothing: its tangent is J's shadow */

enum { L = 4, T = 3 };

class Rod {
 public:
  explicit Rod(const double *x) : u_(L + 2, 0.0), next_(L + 2, 0.0) {
    for (int i = 0; i < L; i++) u_[i + 1] = x[i];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  void exchange() {
    int left = (rank_ + size_ - 1) % size_, right = (rank_ + 1) % size_;
    std::vector<MPI_Request> req(4);
    MPI_Irecv(&u_[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u_[L + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u_[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u_[L], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall((int)req.size(), req.data(), MPI_STATUSES_IGNORE);
  }
  void step(double c) {
    exchange();
    for (int i = 1; i <= L; i++) next_[i] = u_[i] + c * (u_[i - 1] - 2 * u_[i] + u_[i + 1]) + 0.1 * std::sin(u_[i]) * u_[i];
    for (int i = 1; i <= L; i++) u_[i] = next_[i];
  }
  double local() const {
    double s = 0;
    for (int i = 1; i <= L; i++) s += u_[i] * u_[i] * (1 + 0.1 * i);
    return s;
  }

 private:
  std::vector<double> u_, next_;
  int rank_ = 0, size_ = 1;
};

__attribute__((noinline)) static void rod(double *x, double *J) {
  Rod r(x);
  for (int t = 0; t < T; t++) r.step(0.2);
  double s = r.local(), total = 0;
  MPI_Reduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Bcast(&total, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  *J = total;
}

MPI_OBJECTIVE(objective, rod)

int main(int argc, char **argv) {
  int rank = mpi_start(&argc, &argv, 4);
  double x[L], v[L];
  for (int i = 0; i < L; i++) x[i] = std::sin(0.7 * (L * rank + i)) + 0.5, v[i] = std::cos(1.0 + 3 * i + rank);
  MPI_CHECK_BOTH_MODES(rod, objective, x, L, v, 1e-6, 1e-7);
  return mpi_check_done();
}
