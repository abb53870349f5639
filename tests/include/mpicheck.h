/* mpicheck.h: what MPI tests use on top of check.h. Every function here is collective: all ranks call it.
 *
 *   mpi_fd_gradient(J, ctx, x, n, grad, h, tol)  checks grad (each rank's part of the gradient of a global
 *                                              objective J with respect to its n local values x) against
 *                                              central finite differences, perturbing one value of one
 *                                              rank at a time
 *   MPI_CHECK_BOTH_MODES(f, J, x, n, v, h, tol) for f(double *x, double *out) writing a replicated result:
 *                                              its gradient (out seeded on rank 0 only) against finite
 *                                              differences of J (h, tol), its forward tangent along v
 *                                              against sum over ranks of gradient . v (1e-12), its value
 *   MPI_OBJECTIVE(name, f)                      defines double name(void *ctx, double *x): f(x, &J)'s J,
 *                                              for f(double *x, double *out) as MPI_CHECK_BOTH_MODES takes
 *   MPI_CHECK_BOTH_MODES_FLOAT(f, J, x, n, v, h, tol)
 *                                              the same for f(float *x, float *out) computing in float: the
 *                                              tangent against sum_ranks grad . v to 1e-4 (both rounded in
 *                                              float), the value to 1e-6
 *   MPI_FLOAT_OBJECTIVE(name, f, n)             J for it: f at the double values rounded to float (the finite
 *                                              differences perturb them in double)
 *   MPI_CHECK_MAIN(f, n, max_ranks)             main() of a test of such an f on n values per rank: x_i =
 *                                              0.21 i - 0.3 rank + 0.15, v_i = cos(0.3 + 2 i + rank),
 *                                              MPI_CHECK_BOTH_MODES with h = 1e-6 and tolerance 1e-7
 *   mpi_start(&argc, &argv, max_ranks)          MPI_Init, and a failure (all ranks abort) when the run has
 *                                              more ranks than the test's arrays allow; returns the rank
 *   mpi_sum(v)                                  the sum of v over the ranks
 *   return mpi_check_done();                    at the end of main: finalizes MPI; exit status 0 only if
 *                                              every check passed on every rank
 *
 * J must return the same global value on every rank (an Allreduce at its end, say). */
#ifndef PARAD_TEST_MPICHECK_H
#define PARAD_TEST_MPICHECK_H

#include <mpi.h>

#include "check.h"

typedef double (*mpi_objective)(void *ctx, double *x);

#define MPI_OBJECTIVE(name, f)                                                                           \
  static double name(void *ctx, double *x) {                                                            \
    (void)ctx;                                                                                          \
    double J_;                                                                                          \
    f(x, &J_);                                                                                          \
    return J_;                                                                                          \
  }

__attribute__((unused)) static int mpi_start(int *argc, char ***argv, int max_ranks) {
  int rank, size;
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > max_ranks) {
    if (rank == 0) printf("FAIL: at most %d ranks\n", max_ranks);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return rank;
}

__attribute__((unused)) static double mpi_sum(double v) {
  double s;
  MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

__attribute__((unused)) static void mpi_fd_gradient(mpi_objective J, void *ctx, double *x, int n, const double *grad,
                                                   double h, double tol) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int r = 0; r < size; r++)
    for (int i = 0; i < n; i++) {
      double save = x[i];
      if (rank == r) x[i] = save + h;
      double hi = J(ctx, x);
      if (rank == r) x[i] = save - h;
      double lo = J(ctx, x);
      x[i] = save;
      if (rank == r) {
        char what[64];
        snprintf(what, sizeof what, "gradient[%d] on rank %d", i, r);
        check_close_at(__FILE__, __LINE__, what, grad[i], (hi - lo) / (2 * h), tol);
      }
    }
}

#define MPI_CHECK_BOTH_MODES(f, J, x, n, v, h, tol)                                                        \
  do {                                                                                                  \
    int rank_;                                                                                          \
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);                                                              \
    double dx_[n], tx_[n], out_, dout_ = rank_ == 0, tout_ = 0, dot_ = 0;                               \
    for (int i_ = 0; i_ < (n); i_++) dx_[i_] = 0, tx_[i_] = (v)[i_];                                    \
    __parad_autodiff((void *)f, x, dx_, &out_, &dout_);                                                 \
    mpi_fd_gradient(J, NULL, x, n, dx_, h, tol);                                                        \
    __parad_fwddiff((void *)f, x, tx_, &out_, &tout_);                                                  \
    for (int i_ = 0; i_ < (n); i_++) dot_ += dx_[i_] * (v)[i_];                                         \
    CHECK_CLOSE(tout_, mpi_sum(dot_), 1e-12);                                                           \
    CHECK_CLOSE(out_, J(NULL, x), 1e-14);                                                               \
  } while (0)

#define MPI_CHECK_MAIN(f, n, max_ranks)                                                                   \
  MPI_OBJECTIVE(f##_objective_, f)                                                                       \
  int main(int argc, char **argv) {                                                                     \
    int rank_ = mpi_start(&argc, &argv, max_ranks);                                                     \
    double x_[n], v_[n];                                                                                \
    for (int i_ = 0; i_ < (n); i_++) x_[i_] = 0.21 * i_ - 0.3 * rank_ + 0.15, v_[i_] = cos(0.3 + 2 * i_ + rank_); \
    MPI_CHECK_BOTH_MODES(f, f##_objective_, x_, n, v_, 1e-6, 1e-7);                                     \
    return mpi_check_done();                                                                            \
  }

#define MPI_FLOAT_OBJECTIVE(name, f, n)                                                                  \
  static double name(void *ctx, double *xd) {                                                           \
    (void)ctx;                                                                                          \
    float x_[n], J_;                                                                                    \
    for (int i_ = 0; i_ < (n); i_++) x_[i_] = (float)xd[i_];                                            \
    f(x_, &J_);                                                                                         \
    return J_;                                                                                          \
  }

#define MPI_CHECK_BOTH_MODES_FLOAT(f, J, x, n, v, h, tol)                                                  \
  do {                                                                                                  \
    int rank_;                                                                                          \
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);                                                              \
    float dx_[n], tx_[n], out_, dout_ = rank_ == 0, tout_ = 0;                                          \
    double xd_[n], grad_[n], dot_ = 0;                                                                  \
    for (int i_ = 0; i_ < (n); i_++) dx_[i_] = 0, tx_[i_] = (v)[i_];                                    \
    __parad_autodiff((void *)f, x, dx_, &out_, &dout_);                                                 \
    for (int i_ = 0; i_ < (n); i_++) xd_[i_] = (x)[i_], grad_[i_] = dx_[i_];                            \
    mpi_fd_gradient(J, NULL, xd_, n, grad_, h, tol);                                                    \
    __parad_fwddiff((void *)f, x, tx_, &out_, &tout_);                                                  \
    for (int i_ = 0; i_ < (n); i_++) dot_ += (double)dx_[i_] * (v)[i_];                                 \
    CHECK_CLOSE(tout_, mpi_sum(dot_), 1e-4);                                                            \
    CHECK_CLOSE(out_, J(NULL, xd_), 1e-6);                                                              \
  } while (0)

__attribute__((unused)) static int mpi_check_done(void) {
  int local[2] = {check_failures, check_count}, total[2];
  MPI_Allreduce(local, total, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bad = total[0] != 0 || local[1] == 0;
  int any_bad;
  MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    if (any_bad) printf("FAIL: %d of %d checks failed over %d ranks (or a rank checked nothing)\n", total[0], total[1], size);
    else printf("%d checks passed over %d ranks\n", total[1], size);
  }
  MPI_Finalize();
  return any_bad;
}

#endif
