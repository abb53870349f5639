// What OpenMP tasks still lack: reverse mode refuses untied tasks (each task records on a tape of its own,
// made current on the thread that runs it, and an untied task may move between threads), both modes
// refuse task reductions other than sums (a product's private copies cannot be made the tasks' own and
// added up). Refused at the construct, no output file.
// RUN: rm -f %t && not %parad-cc %cflags -fopenmp %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: rm -f %t1 && not %parad-cc %cflags -fopenmp -DFORWARD %s -o %t1 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: test ! -e %t1
double __parad_autodiff(void *, ...);
double __parad_fwddiff(void *, ...);

static double f(double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
    // CHECK: omp_task.c:[[@LINE+1]]:{{[0-9]+}}: error: reverse mode cannot differentiate this task: its body is not in the program, it is untied or detachable, or its private copies have destructors in function 'f'
#pragma omp task shared(s) untied
    {
#pragma omp atomic
      s += x[i] * x[i];
    }
  }
  return s;
}

static double g(double *x, int n) {
  double s = 1;
#pragma omp parallel
#pragma omp single
  // LOOP: omp_task.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate this OpenMP construct (__kmpc_task_reduction_get_th_data): task reductions other than sums of scalars, copyprivate and the like are not supported in function
#pragma omp taskloop reduction(* : s)
  for (int i = 0; i < n; i++) s *= x[i] * x[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
#ifdef FORWARD
  dx[0] = 1;
  return __parad_fwddiff((void *)g, x, dx, 4) > 0;
#else
  __parad_autodiff((void *)f, x, dx, 4);
  return 0;
#endif
}
