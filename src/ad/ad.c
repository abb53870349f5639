/* The two steps of the transformation over a whole module, and the memo of generated functions. */
#include "ad/ad.h"

#include <stdlib.h>
#include <string.h>

#include "ad/request.h"
#include "analysis/activity.h"
#include "forward/forward.h"
#include "ir/diag.h"
#include "ir/ir.h"

LLVMValueRef ad_find_generated(AdModule *ad, const char *key) {
  for (size_t i = 0; i < ad->generated.len; i++)
    if (!strcmp(ad->generated.data[i].key, key)) return ad->generated.data[i].fn;
  return NULL;
}

void ad_remember_generated(AdModule *ad, const char *key, LLVMValueRef fn) {
  Generated g = {xstrdup(key), fn};
  vec_push(&ad->generated, g);
}

int ad_prepare(LLVMModuleRef m) { return request_canonicalise_all(m); }

static bool is_entry_name(const char *name) {
  static const char *const prefixes[] = {"__parad_fwddiff", "__enzyme_fwddiff", "__parad_autodiff",
                                         "__enzyme_autodiff", "__parad_augmentfwd", "__enzyme_augmentfwd",
                                         "__parad_reverse", "__enzyme_reverse", REQUEST_PREFIX};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
    if (!strncmp(name, prefixes[i], strlen(prefixes[i]))) return true;
  return false;
}

bool ad_module_has_requests(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMIsDeclaration(f) && LLVMGetFirstUse(f) && is_entry_name(LLVMGetValueName(f))) return true;
  return false;
}

int ad_generate(LLVMModuleRef m) {
  AdModule ad = {.mod = m, .ctx = LLVMGetModuleContext(m)};
  int before = diag_error_count();
  VEC(LLVMValueRef) calls = {0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMIsDeclaration(f) && !strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX)))
      for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        if (ir_is_call(LLVMGetUser(u))) vec_push(&calls, LLVMGetUser(u));
  for (size_t i = 0; i < calls.len; i++) {
    Request r;
    if (!request_decode(calls.data[i], &r)) continue;
    if (r.mode == MODE_FORWARD)
      fwd_lower_request(&ad, &r);
    else
      diag_error_plain(r.call, "parad: internal error: no generator for %s mode", request_mode_name(r.mode));
    request_free(&r);
  }
  vec_free(&calls);
  /* The request declarations are gone from the code; drop them from the module too. */
  for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    if (LLVMIsDeclaration(f) && !LLVMGetFirstUse(f) && !strncmp(LLVMGetValueName(f), REQUEST_PREFIX, strlen(REQUEST_PREFIX)))
      LLVMDeleteFunction(f);
  }
  for (size_t i = 0; i < ad.generated.len; i++) free(ad.generated.data[i].key);
  vec_free(&ad.generated);
  activity_cache_free(&ad);
  return diag_error_count() - before;
}
