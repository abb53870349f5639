/* Diagnostics in the form users know from clang:
 *     file:line:col: error: <what> in function '<name>'
 * located by the debug line info clang keeps on each instruction. The generators report and carry on, so
 * that one run lists every problem; the driver then exits non-zero and writes no output. */
#ifndef PARAD_IR_DIAG_H
#define PARAD_IR_DIAG_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>

/* Reports an error at an instruction (or a function, or NULL when there is no better place). */
void diag_error(LLVMValueRef at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A warning there: printed as clang prints its own, not counted (the compilation goes on). */
void diag_warning(LLVMValueRef at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same, for problems that are about a call site's use of the calling convention: names no function. */
void diag_error_plain(LLVMValueRef at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same, at a source line given by hand (an annotation's, which carries its file and line). */
void diag_error_at_line(const char *file, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int diag_error_count(void);
/* The names of the functions of the instructions errors were reported at (counted ones, in order; repeats
 * kept), until diag_error_functions_clear: which requests a refusal concerns (driver/pipeline.c at -O0). */
size_t diag_error_functions(char ***out);
void diag_error_functions_clear(void);
/* Where messages go (stderr by default); tests and the library user may redirect. */
void diag_set_stream(void *file);
/* The request being lowered (NULL: none): where a problem found in code without a source line (a
 * derivative of a derivative, which forward mode over reverse mode differentiates) is reported. */
void diag_set_request(LLVMValueRef call);

/* Between begin and end, errors are kept instead of printed; end returns them (caller frees; "" when
 * there were none), and an outer capture gets them too (a holding one only errors that counted). Two kinds:
 *   trying   something that may fail without failing the compilation (a derivative that only a call
 *            through a function pointer might need): its errors are not counted; diag_replay prints and
 *            counts them once they turn out to matter;
 *   holding  errors that count, held back to be printed (or replaced by better-placed ones) later.
 * diag_trying: whether some enclosing capture is trying. */
void diag_capture_begin(bool trying);
char *diag_capture_end(void);
/* Ends a capture as if there had been none: its errors go to the outer capture, else are printed. */
void diag_capture_release(void);
/* Ends a capture and hands its errors to no one (they were about an attempt given up; they still counted):
 * returns them (caller frees). */
char *diag_capture_drop(void);
bool diag_trying(void);
void diag_replay(const char *kept);

/* Has the optimiser's messages in ctx printed as clang prints them, but once each. A loop the program
 * asked to vectorise that would not be (clang's -Wpass-failed) has copies in the derivatives, with the
 * program's hints: without this, each copy warned again, at <unknown>:0:0 where its locations were
 * dropped. Errors end the compilation, as under LLVM's own handler. Remarks are not printed: LLVM's own
 * handler prints only those asked for (a forced loop's reasons), which a handler in C cannot tell from
 * the others every loop sends. */
void diag_handle_optimiser(LLVMContextRef ctx);

/* The source function an instruction was written in: after inlining, the callee's name, not the
 * caller's. Falls back to the LLVM function. Returned string lives as long as the module. */
const char *diag_source_function(LLVMValueRef inst);
/* The program's name for a function Parad may have renamed (f.optimised, f.omp_outlined: f). */
const char *diag_program_name(LLVMValueRef fn);
/* "file:line" of an instruction's location, for a message the program prints at run time (caller frees). */
char *diag_place(LLVMValueRef inst);

#endif
