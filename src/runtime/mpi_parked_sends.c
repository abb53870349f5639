/* Forward mode's standard sends, completed later where the receiver is not there yet.
 *
 * Programs rely on MPI buffering small messages (the eager protocol): a ring in which every rank sends
 * before it receives runs because each MPI_Send returns once its message is on its way. Forward mode's
 * message carries the tangents too, twice as long, and past the library's eager limit (Open MPI's 4 KiB
 * for shared memory) such a ring hung: every rank waited in MPI_Send for a receive that its neighbour
 * posts only after its own send returns. A standard send may complete before its receive is posted (a
 * buffered send does), and the message is Parad's own packed copy, so the user's buffer is free either
 * way: the send waits a while, as long as the transfer would take, and is then parked, to complete while
 * the program goes on. Parked sends are finished at later sends and at MPI_Finalize (a delete callback
 * on MPI_COMM_SELF's attribute, which MPI runs first there). */
#include <pthread.h>
#include <stdlib.h>

#include "mpi_types.h"

typedef struct Parked {
  MPI_Request req;
  char *message;
  struct Parked *next;
} Parked;

static Parked *parked;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int finalize_key = MPI_KEYVAL_INVALID;

/* Frees the parked sends that are done; with wait, waits for all of them first. Under the lock. */
static void finish(int wait) {
  for (Parked **p = &parked; *p;) {
    int done = 0;
    if (wait) MPI_Wait(&(*p)->req, MPI_STATUS_IGNORE), done = 1;
    else MPI_Test(&(*p)->req, &done, MPI_STATUS_IGNORE);
    if (!done) {
      p = &(*p)->next;
      continue;
    }
    Parked *d = *p;
    *p = d->next;
    free(d->message);
    free(d);
  }
}

static int at_finalize(MPI_Comm comm, int key, void *value, void *extra) {
  (void)comm, (void)key, (void)value, (void)extra;
  pthread_mutex_lock(&lock);
  finish(1);
  pthread_mutex_unlock(&lock);
  return MPI_SUCCESS;
}

int parad_mpi_send_parking(char *message, int size, int dest, int tag, MPI_Comm comm) {
  pthread_mutex_lock(&lock);
  if (parked) finish(0);
  pthread_mutex_unlock(&lock);
  MPI_Request req;
  int rc = MPI_Isend(message, size, MPI_PACKED, dest, tag, comm, &req), done = 0;
  if (rc != MPI_SUCCESS) {
    free(message);
    return rc;
  }
  /* as long as a blocking send would take where the receive is posted: 1 ms, and 1 ms a MB */
  double start = MPI_Wtime(), grace = 1e-3 + 1e-9 * size;
  do MPI_Test(&req, &done, MPI_STATUS_IGNORE);
  while (!done && MPI_Wtime() - start < grace);
  if (done) {
    free(message);
    return MPI_SUCCESS;
  }
  Parked *p = parad_mpi_alloc(sizeof *p);
  p->req = req;
  p->message = message;
  pthread_mutex_lock(&lock);
  if (finalize_key == MPI_KEYVAL_INVALID) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &finalize_key, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, finalize_key, NULL);
  }
  p->next = parked;
  parked = p;
  pthread_mutex_unlock(&lock);
  return MPI_SUCCESS;
}
