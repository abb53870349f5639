// A differentiated function that waits for a thread of the program's own (a worker woken through a
// condition variable, a joined thread, a semaphore) gets what that thread computed through memory, where
// Parad cannot see it: the derivative of the worker's part was lost with no message (a gradient 2 0 for
// 2 4). Refused at the wait, in both modes, at -O2 and -O0, and no output is written.
// RUN: rm -f %t && not %parad-cc %cflags -pthread %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
// RUN: not %parad-cc -O0 -pthread -I%S/../include %s -o %t 2>&1 | FileCheck %s
// RUN: test ! -e %t
#include <parad.h>
#include <pthread.h>
#include <semaphore.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static struct {
  const double *x;
  double part;
  int pending, done;
} job;
static sem_t ready;

static void *square_second(void *arg) {
  job.part = job.x[1] * job.x[1];
  return arg;
}

double handed_over(const double *x) {
  pthread_mutex_lock(&mu);
  job.x = x, job.pending = 1, job.done = 0;
  pthread_cond_broadcast(&cv);
  // CHECK-DAG: thread_waits.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a call to 'pthread_cond_wait': it waits for another thread, whose work Parad cannot see (what that thread hands over would carry no derivative); compute that work in the differentiated code (OpenMP), or, if nothing it hands over carries a derivative, declare the call inactive (void *__enzyme_inactivefn[] = {(void *)pthread_cond_wait};) in function 'handed_over'
  while (!job.done) pthread_cond_wait(&cv, &mu);
  double other = job.part;
  pthread_mutex_unlock(&mu);
  return x[0] * x[0] + other;
}

double joined(const double *x, pthread_t worker) {
  job.x = x;
  // CHECK-DAG: thread_waits.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a call to 'pthread_join': it waits for another thread{{.*}} in function 'joined'
  pthread_join(worker, NULL);
  return x[0] + job.part;
}

double signalled(const double *x) {
  job.x = x;
  // CHECK-DAG: thread_waits.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate a call to 'sem_wait': it waits for another thread{{.*}} in function 'signalled'
  sem_wait(&ready);
  return x[0] * job.part;
}

void derivatives(const double *x, double *g, double *v, pthread_t worker) {
  __parad_autodiff((void *)handed_over, x, g);
  __parad_fwddiff((void *)handed_over, x, v);
  __parad_autodiff((void *)joined, x, g, parad_const, worker);
  __parad_autodiff((void *)signalled, x, g);
  pthread_t t;
  pthread_create(&t, NULL, square_second, NULL);
}
