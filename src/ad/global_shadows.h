/* Shadows of mutable globals. A global of floats (and integers: no pointers) that the file defines, not
 * thread-local nor registered inactive, is a program's workspace, accumulator or field, and gets a shadow
 * global of its own per mode, "tangents" or "adjoints", zero at every derivative's entry: the global's value
 * there is state, not an input the request differentiates (ad_zero_global_shadows). Split mode's calls of
 * one gradient share them (ad_zero_global_adjoints_unless_split).
 *
 * Such a global carries derivatives from one function to another without a call's arguments saying so (a
 * callee fills it, its caller reads it; a parallel region and the function around it): a call is
 * differentiated when its callee reaches one that may hold derivatives, whatever its arguments are. */
#ifndef PARAD_AD_GLOBAL_SHADOWS_H
#define PARAD_AD_GLOBAL_SHADOWS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "ad/constants.h"

/* A mutable global that has a shadow (above), or a pointer global holding a heap block (ad/global_blocks.h). */
bool ad_is_mutable_global_with_shadow(LLVMValueRef g);
/* Whether the program may put active data into such a global, in a function a derivative runs: a store of
 * floats that are not made of constants (and integers) into it, or of an integer that may be a float's bits,
 * or its address going anywhere but a load's or store's address (a global only read, or given constants, or
 * set up by `main`, does not). */
bool ad_global_may_hold_active(LLVMValueRef g);
/* Its shadow for `use`, made in its module on first use. */
LLVMValueRef ad_global_shadow(LLVMValueRef g, ShadowUse use);
/* The same for the runtime's kind of shadow of a global holding blocks (ad/global_blocks.h: a use and a
 * direction of vector forward mode). */
LLVMValueRef ad_global_shadow_of_kind(LLVMValueRef g, unsigned kind);
/* The global holding heap blocks (ad/global_blocks.h) whose adjoints' shadow global s is, or NULL. */
LLVMValueRef ad_block_global_of_adjoints(LLVMValueRef s);
/* Under vector forward mode, the tangents of direction `lane` of a constant address v into such a global:
 * a shadow global per direction (lane 0's the scalar mode's), zeroed at entry like the others. */
LLVMValueRef ad_global_tangent_lane(LLVMValueRef v, unsigned lane);
/* Whether fn reads or writes a global that may hold active data, itself or through the functions it
 * calls (through a pointer: any function whose address is taken) or whose parallel regions it forks. */
bool ad_reaches_active_global(LLVMValueRef fn);
/* The same for what a call runs: its callee, a region's function, or any candidate of a call through a
 * pointer. */
bool ad_call_reaches_active_global(LLVMValueRef call);
/* Around generating m's derivatives: begin notes which functions the requests reach (a store elsewhere,
 * `main` setting up a table, happens where the shadow is zero: it makes no global active), end forgets
 * that, the shadows made and what reaches them. Before begin, every store counts. */
void ad_global_shadows_begin(LLVMModuleRef m);
void ad_global_shadows_end(void);
/* Before `before` (a derivative's call where a request was), every shadow of a mutable global made for
 * `use` set to zero: called once every derivative is generated, before end. */
void ad_zero_global_shadows(LLVMModuleRef m, LLVMValueRef before, ShadowUse use);
/* Split mode chains derivatives through globals: `layer(x)` writes h, `loss()` reads it, and the user runs
 * aug(layer), aug(loss), rev(loss), rev(layer), each with its own tape. The adjoint of h that rev(loss)
 * leaves is what rev(layer) needs, so the adjoints of globals are not zeroed at each reverse call but
 * where a split-mode gradient begins: before an augmented forward call (`before`) while no tape of split
 * mode is waiting for its reverse call (runtime/split_globals.c). */
void ad_zero_global_adjoints_unless_split(LLVMModuleRef m, LLVMValueRef before);
/* Around `call`, the reverse call of a whole derivative (__parad_autodiff): the adjoints of globals zeroed
 * before it; where a split-mode gradient is open, the runtime stops the program if they held an adjoint
 * (a reverse call of the gradient left it for another: it would be lost), and zeroes them again after it
 * (what it left would reach the gradient's reverse calls). */
void ad_isolate_global_adjoints(LLVMModuleRef m, LLVMValueRef call);
/* Around `call` (a derivative's call where a request was; not an invoke), where its code reaches a shadow of
 * a global of floats made for `use`: the runtime counts the derivatives running with such shadows, and one
 * entered on another thread while any runs stops the program (runtime/global_users.c). Called before the
 * functions above, so that the count comes before their zeroing. */
void ad_guard_global_shadows(LLVMModuleRef m, LLVMValueRef call, ShadowUse use);
/* Split mode where a global carries derivatives from call to call (one reads what an earlier one wrote):
 * after the augmented forward call whose tape `tape` is, the globals its function reaches are noted with
 * the tape; before `call`, a reverse call, the runtime stops the program if the reverse calls of the tapes
 * noted with a global come out of order (runtime/split_globals.c). */
void ad_note_split_carried(LLVMModuleRef m, LLVMValueRef tape);
void ad_check_split_order(LLVMModuleRef m, LLVMValueRef call);
/* Before `before` (where a derivative's forward sweep starts), every shadow made for `use` of a global
 * holding a heap block set to a zeroed shadow of the block (ad/global_blocks.h). */
void ad_enter_global_blocks(LLVMModuleRef m, LLVMValueRef before, ShadowUse use);
/* After `after` (a derivative's call where a request was), those shadows the runtime's again. */
void ad_leave_global_blocks(LLVMModuleRef m, LLVMValueRef after, ShadowUse use);

/* While derivatives are generated: whether inst is in a function no request reaches (`main`, set-up). */
bool ad_deciding(void);
bool ad_outside_derivatives(LLVMValueRef inst);
/* Whether a value stored may carry a derivative: floats not made of constants, or an integer that may be
 * a float's bits. */
bool ad_stored_value_may_be_active(LLVMValueRef stored);

#endif
