/* Shadows of constants. A pointer to a function or to constant data may be stored into active memory (a
 * table of operations `s->pot = &harmonic`), and the derivative code then wants its shadow:
 *   a function         is its own shadow: it is not data;
 *   a constant global  gets a shadow global of its own: zeros where it holds floats (a constant has no
 *                      derivative), the shadows of the pointers it holds where it holds pointers (a table
 *                      of functions keeps them). Forward mode only reads it (a constant); reverse mode
 *                      adds adjoints into it, which are dropped (a global of its own);
 *   a constant address into either (a getelementptr) is the same address in the shadow.
 *   the runtime's current tape has its tangent twin (forward mode over reverse mode, runtime/tape.h).
 *   a mutable global of floats (and integers: no pointers) that the file defines gets a shadow global of
 *                      its own per mode (ad/global_shadows.h).
 * Anything else (a mutable global holding pointers, thread-local, registered inactive) has none: NULL.
 *
 * And a stand-in: a pointer without a shadow that a select or phi chooses against one with a shadow,
 * where the choice is only loaded from, directly or at constant offsets (`i > 0 ? u[i-1] : bc[0]` becomes,
 * optimised, a load from a select of the two addresses, bc constant; `c ? u[2] : bc[2]` a load 16 bytes
 * past a phi of the two bases), shadows itself with a block of zeros: what is loaded from it has no
 * derivative. Loaded from at any offset (a view of either), it shadows itself with its own memory, and
 * each load through the view tells the two apart by address; so does a pointer without a shadow stored
 * into a local that a region, a task or a function of the program only loads views from (a slot), and
 * the functions and tasks such views or slots are passed to, told by their patterns. A global the
 * program registered as inactive, chosen so, gets a block of its own size (whatever goes through the
 * choice into it is dropped). */
#ifndef PARAD_AD_CONSTANTS_H
#define PARAD_AD_CONSTANTS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* Whether every pointer read from global g is read back only for integers, floats it compares, or a call
 * through it (a qsort key, a table of callbacks without data): no derivative goes through what they point
 * to. */
bool ad_global_pointers_read_need_none(LLVMValueRef g);
/* Whether v is a constant that has a shadow (see above). */
bool ad_has_constant_shadow(LLVMValueRef v);
/* The runtime's current tape (a global): what a reverse sweep reads from it is active memory when forward
 * mode differentiates the sweep. */
bool ad_is_current_tape(LLVMValueRef g);
/* A reverse function Parad generated: it reads its records from the current tape, so that under forward
 * mode a call of it carries tangents even when no argument is active (a constant seed). */
bool ad_is_reverse_sweep(LLVMValueRef fn);
/* Forward mode reads shadows (tangents); reverse mode adds into them (adjoints). */
typedef enum { SHADOW_READ, SHADOW_ADD } ShadowUse;

/* Its shadow, made in v's module on first use; NULL when it has none. */
LLVMValueRef ad_constant_shadow(LLVMValueRef v, ShadowUse use);
/* The stand-in shadow of operand, a pointer without one, of the select or phi `choice` (or the store
 * that puts it into a slot), when the choice is only loaded from (floats, 64 bytes at a time, through
 * getelementptrs, further choices, slots and calls of the program's functions):
 *   a block of zeros (forward) or a sink (reverse) where every load lies within 64 bytes before the choice
 *   and 192 after;
 *   operand itself where loads go further (a view of either, `p = c ? bc : x`, then `p[i]`, or floats
 *   copied out of it): the generator shadows it with its own copy of operand, and every load through
 *   the view reads its shadow at ad_view_shadow_address (a copy, at ad_view_shadow_source);
 *   NULL otherwise. */
LLVMValueRef ad_stand_in_shadow(LLVMValueRef choice, LLVMValueRef operand, ShadowUse use);
/* Whether load reads through a view whose shadow may be memory that shadows itself (above); act says
 * which values have shadows of their own. */
typedef struct Activity Activity;
bool ad_load_through_view(const Activity *act, LLVMValueRef load);
/* Whether call, a memcpy or memmove, copies out of such a view. */
bool ad_copy_through_view(const Activity *act, LLVMValueRef call);
/* Whether call, a memcpy or memmove into memory with a shadow, moves pointers out of memory without one (not
 * a constant's): their shadows there would be null, and whatever the code read through them later would
 * take its derivative from address zero (a table's record copied out of a global, its axis pointer then
 * stored beside an active value). The generators refuse it as they refuse storing such a pointer. */
bool ad_copy_drops_pointer_shadows(const Activity *act, LLVMValueRef call);
#define POINTERS_COPIED_WITHOUT_SHADOWS                                                                         \
  "this copy moves pointers into memory with derivatives, and their shadows would be null: the memory they "  \
  "are copied from has none (%s)"
/* The source such a copy takes its derivative from: NULL where the view's shadow address is its address
 * (constant memory: the destination's derivative becomes zero), else the shadow. */
LLVMValueRef ad_view_shadow_source(LLVMBuilderRef b, LLVMValueRef shadow, LLVMValueRef address);
/* The pattern for call (a fork, or a direct call of a module function), given with its letters and
 * freed here, with marks for the parameters with shadows that may be, or whose memory may hold, a pointer
 * that shadows itself (a view passed on; a local holding a view, or a constant pointer chosen against
 * active memory where it is loaded): the letters, '@', then one mark per parameter of the function
 * called, 'v' for such a parameter and '-' elsewhere. The pattern as it was when there are none. */
char *ad_mark_view_slots(const Activity *act, LLVMValueRef call, char *pattern);
/* The same for a task's entry (gtid, task), given the pattern of alloc (its OMP_TASK_ALLOC): the task
 * marked where the creating code stores such a pointer, or a slot's address, into its block or shareds. */
char *ad_mark_task_views(const Activity *act, LLVMValueRef alloc, char *pattern);
/* Where a load through a view reads (forward) or adds (reverse) its derivative: the stand-in block where
 * its shadow address is its address (the view was on memory without a shadow), else the shadow. */
LLVMValueRef ad_view_shadow_address(LLVMBuilderRef b, LLVMModuleRef m, LLVMValueRef shadow, LLVMValueRef address,
                                    ShadowUse use);

#endif
