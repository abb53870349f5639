/* The middle of parad-cc, in process: IR from the front end in, optimised IR with derivatives out.
 *
 *   ad_prepare -> light optimisation -> ad_generate -> (strip debug info) -> LLVM's O-level pipeline
 *
 * It runs only when the module asks for a derivative; without one the driver hands the IR back to clang. */
#ifndef PARAD_DRIVER_PIPELINE_H
#define PARAD_DRIVER_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char opt;           /* '0' '1' '2' '3' 's' 'z' */
  bool keep_debug;    /* the user asked for -g */
  bool has_line_info; /* the IR has debug locations (-g, or line tables parad-cc asked for) */
  bool vectorize, slp_vectorize, unroll;
  bool text_output;   /* write .ll instead of bitcode */
  bool verbose;
  const char *source_name; /* for the module's name, as clang names it */
  bool may_defer;     /* derivatives that reach other files may wait for the link (PIPELINE_DEFERRED) */
  bool file_only;     /* -S or -emit-llvm of a source: no link follows where other files' functions are seen */
  bool sees_too_little; /* set by pipeline_run: (file_only) a derivative asked for reaches other files */
  bool loose_aliasing; /* -fno-strict-aliasing (analysis/memtype.h) */
  /* set by pipeline_run: at -O0, the derivatives were made from optimised copies and optimised as at
     -O2 (the program's own functions kept optnone); code generation then optimises too */
  bool optimised_derivatives;
  bool made_copies; /* set by pipeline_run: derivatives made from optimised copies (at -O0, or of functions
                       an optimised program's requests reach that were built at -O0) */
  /* set by pipeline_run: the reverse-mode requests given a choice of gradients (ad/apart.h) that kept it
     after their checks were built; where that run is refused, it runs again with none (no_apart) */
  unsigned apart_choices;
  bool no_apart;
  /* the requests (canonical names) whose derivatives of the optimised copies were refused, made
     from the program as compiled in the next try while the others keep their copies */
  char **as_compiled;
  size_t n_as_compiled;
} PipelineOptions;

enum {
  PIPELINE_OK,
  PIPELINE_REFUSED,
  PIPELINE_FAILED,
  PIPELINE_WANTS_LINE_INFO,
  PIPELINE_NO_REQUESTS,
  PIPELINE_MARKERS,
  PIPELINE_DEFERRED,
};

/* Returns
 *   PIPELINE_OK               out_path written;
 *   PIPELINE_REFUSED          the input is refused (diagnostics printed);
 *   PIPELINE_FAILED           an internal error;
 *   PIPELINE_WANTS_LINE_INFO  the module asks for derivatives but has no line information to place
 *                             diagnostics with: compile it again with line tables;
 *   PIPELINE_NO_REQUESTS      nothing to differentiate: nothing written, let clang compile the input as
 *                             it compiles any program (exactly, down to the object file);
 *   PIPELINE_MARKERS          nothing to differentiate, but the file defines markers (int enzyme_dup;):
 *                             out_path holds it with their definitions made weak, for clang to compile;
 *   PIPELINE_DEFERRED         (may_defer) the derivatives asked for reach other files of the program:
 *                             the calling convention is checked, nothing written; they are generated at
 *                             link time from the IR the object carries (link.c). */
int pipeline_run(const char *in_path, const char *out_path, PipelineOptions *o);

#endif
