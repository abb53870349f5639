/* Loops checkpointed without a marker when a tape budget is set (checkpoint_auto.c): a reverse-mode
 * request's function F gets a twin whose top-level loops are checkpointed, and the request a switch that
 * takes the twin's gradient under a budget. Every part of a twin (its family: the twin and the functions
 * made for its loops) is only tried: where one is refused, the twin is, and the switch takes F's. */
#ifndef PARAD_AD_CHECKPOINT_AUTO_H
#define PARAD_AD_CHECKPOINT_AUTO_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* The family fn belongs to (its twin's name), or NULL. */
const char *checkpoint_auto_family(LLVMValueRef fn);
/* fn joins family (nothing when family is NULL). */
void checkpoint_auto_join(LLVMValueRef fn, const char *family);
/* The family's twin is refused (why: the errors that refused it, printed with PARAD_AUTO_WHY set); whether
 * it is. */
void checkpoint_auto_refuse(LLVMModuleRef m, const char *family, const char *why);
bool checkpoint_auto_refused(LLVMModuleRef m, const char *family);
/* The family of a canonical request call that belongs to one (its twin's, or one its loops' runners make),
 * or NULL. */
const char *checkpoint_auto_request_family(LLVMValueRef call);
/* After the derivatives are written: the switches of refused twins take F's gradient always. */
void checkpoint_auto_finish(LLVMModuleRef m);

#endif
