/* The middle of parad-cc, in process: IR from the front end in, optimised IR with derivatives out.
 *
 *   [ad_prepare] -> light optimisation -> [ad_generate] -> (strip debug info) -> LLVM's O-level pipeline
 *
 * The bracketed steps run only when the module asks for a derivative; without one the IR goes through
 * exactly the pipeline clang runs, so the program is built as clang builds it. */
#ifndef PARAD_DRIVER_PIPELINE_H
#define PARAD_DRIVER_PIPELINE_H

#include <stdbool.h>

typedef struct {
  char opt;           /* '0' '1' '2' '3' 's' 'z' */
  bool keep_debug;    /* the user asked for -g */
  bool vectorize, slp_vectorize, unroll;
  bool text_output;   /* write .ll instead of bitcode */
  bool verbose;
} PipelineOptions;

/* Returns 0 on success, 1 when the input is refused (diagnostics printed), 2 on an internal error. */
int pipeline_run(const char *in_path, const char *out_path, const PipelineOptions *o);

#endif
