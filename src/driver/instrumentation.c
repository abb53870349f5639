/* Instrumentation clang adds in its own pipeline (see instrumentation.h). */
#include "driver/instrumentation.h"

#include <stdio.h>
#include <string.h>

static const char EXEMPT[] = "parad-no-asan"; /* a function the user kept out of AddressSanitizer */

static unsigned kind_of(const char *attribute) { return LLVMGetEnumAttributeKindForName(attribute, strlen(attribute)); }

static bool has(LLVMValueRef f, const char *attribute) {
  return LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind_of(attribute)) != NULL;
}

static bool any_function_has(LLVMModuleRef m, const char *attribute) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (has(f, attribute)) return true;
  return false;
}

static void append(char *buf, size_t size, const char *passes) {
  size_t n = strlen(buf);
  snprintf(buf + n, size - n, "%s%s", n ? "," : "", passes);
}

bool instrumentation_first(LLVMModuleRef m, char *buf, size_t size) {
  buf[0] = 0;
  /* the profile counters' intrinsics, lowered before anything drops the names of functions coverage reports
     as unused (after the optimiser, llvm-cov found "function name is empty") */
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!strncmp(LLVMGetValueName(f), "llvm.instrprof.", 15) && LLVMGetFirstUse(f)) {
      append(buf, size, "instrprof");
      break;
    }
  /* gcov's, from the files the front end named (one compilation unit: a merged program's files are
     instrumented one by one at the link, link.c) */
  if (LLVMGetNamedMetadata(m, "llvm.gcov", 9) && !LLVMGetNamedFunction(m, "__llvm_gcov_init")) append(buf, size, "insert-gcov-profiling");
  return buf[0];
}

void instrumentation_note_exempt(LLVMModuleRef m) {
  if (!any_function_has(m, "sanitize_address")) return;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && !has(f, "sanitize_address"))
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(ctx, EXEMPT, sizeof EXEMPT - 1, "", 0));
}

bool instrumentation_last(LLVMModuleRef m, char *buf, size_t size) {
  static const struct {
    const char *attribute, *passes;
  } sanitizers[] = {{"sanitize_address", "asan"}, {"sanitize_thread", "tsan-module,function(tsan)"}, {"sanitize_memory", "msan"}};
  buf[0] = 0;
  if (any_function_has(m, "sanitize_address")) /* the derivatives too, but for those of exempt functions */
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
      if (LLVMIsDeclaration(f)) continue;
      if (LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, EXEMPT, sizeof EXEMPT - 1))
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, EXEMPT, sizeof EXEMPT - 1);
      else if (!has(f, "sanitize_address"))
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(LLVMGetModuleContext(m), kind_of("sanitize_address"), 0));
    }
  for (size_t k = 0; k < sizeof sanitizers / sizeof sanitizers[0]; k++)
    if (any_function_has(m, sanitizers[k].attribute)) append(buf, size, sanitizers[k].passes);
  return buf[0];
}
