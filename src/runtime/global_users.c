/* Derivatives run at once on several threads whose code uses the shadow of a global of floats. A global's
 * shadow is one for the whole program, zeroed at every derivative's entry (ad/global_shadows.h): two such
 * derivatives running at once (per-sample gradients in a parallel loop, each thread keeping its rows of a
 * global scratch array) would wipe each other's derivatives. The generated code counts those running;
 * one entered on another thread while any runs stops the program, naming the cause and the way round.
 * Nested on one thread (a derivative of a derivative) they go on. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t users_mu = PTHREAD_MUTEX_INITIALIZER;
static long users;     /* derivatives running that use the shadows of globals */
static pthread_t user; /* the thread running them, while users > 0 */

void __parad_rt_globals_enter(void) {
  pthread_mutex_lock(&users_mu);
  bool other = users > 0 && !pthread_equal(user, pthread_self());
  if (!other) user = pthread_self(), users++;
  pthread_mutex_unlock(&users_mu);
  if (!other) return;
  fprintf(stderr, "parad runtime: two derivatives that use a global variable's derivative (a global array written "
                  "with values that have derivatives) ran at once on two threads: a global has one derivative for "
                  "the whole program, which each derivative starts at zero; keep such data in local arrays or "
                  "arguments with a shadow per thread, or compute these derivatives one at a time\n");
  exit(70);
}

void __parad_rt_globals_leave(void) {
  pthread_mutex_lock(&users_mu);
  users--;
  pthread_mutex_unlock(&users_mu);
}
