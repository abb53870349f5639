/* parad: the transformation alone, IR in and IR out, for tests and for looking at what it generates.
 *
 *   parad [-S] [--stage=prepare|generate|all] [-o out] in.ll|in.bc
 *
 * --stage=all (the default) runs both steps back to back without the optimisation parad-cc puts
 * between them, so the output shows the generated code as written. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "ad/ad.h"
#include "ir/diag.h"
#include "rules/rules.h"

static int usage(void) {
  fputs("usage: parad [-S] [--stage=prepare|generate|all] [-o out] input.ll|input.bc\n"
        "       parad --check-rules\n",
        stderr);
  return 2;
}

static bool module_valid(LLVMModuleRef m) {
  char *msg = NULL;
  bool bad = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
  if (bad) fprintf(stderr, "parad: internal error: the generated module is invalid:\n%s\n", msg);
  LLVMDisposeMessage(msg);
  return !bad;
}

int main(int argc, char **argv) {
  const char *in = NULL, *out = "-", *stage = "all";
  int text = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-S"))
      text = 1;
    else if (!strcmp(argv[i], "-o") && i + 1 < argc)
      out = argv[++i];
    else if (!strncmp(argv[i], "--stage=", 8))
      stage = argv[i] + 8;
    else if (!strcmp(argv[i], "--check-rules"))
      return rules_self_check() ? 1 : 0;
    else if (argv[i][0] == '-' && argv[i][1])
      return usage();
    else
      in = argv[i];
  }
  if (!in || (strcmp(stage, "prepare") && strcmp(stage, "generate") && strcmp(stage, "all"))) return usage();

  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf;
  char *msg = NULL;
  if (!strcmp(in, "-") ? LLVMCreateMemoryBufferWithSTDIN(&buf, &msg)
                       : LLVMCreateMemoryBufferWithContentsOfFile(in, &buf, &msg)) {
    fprintf(stderr, "parad: cannot read %s: %s\n", in, msg);
    return 1;
  }
  LLVMModuleRef m;
  if (LLVMParseIRInContext(ctx, buf, &m, &msg)) {
    fprintf(stderr, "parad: %s: %s\n", in, msg);
    LLVMDisposeMessage(msg);
    LLVMContextDispose(ctx);
    return 1;
  }
  msg = NULL;
  int errors = 0, rc = 0;
  if (strcmp(stage, "generate")) errors += ad_prepare(m);
  if (!errors && strcmp(stage, "prepare")) errors += ad_generate(m, NULL);
  if (errors) {
    fprintf(stderr, "parad: %d error%s, no output written\n", errors, errors > 1 ? "s" : "");
    rc = 1;
  } else if (!module_valid(m)) {
    rc = 3;
  } else if (text) {
    if (!strcmp(out, "-")) {
      char *s = LLVMPrintModuleToString(m);
      fputs(s, stdout);
      LLVMDisposeMessage(s);
    } else if (LLVMPrintModuleToFile(m, out, &msg)) {
      fprintf(stderr, "parad: cannot write %s: %s\n", out, msg);
      rc = 1;
    }
  } else if (!strcmp(out, "-") ? LLVMWriteBitcodeToFD(m, 1, 0, 0) : LLVMWriteBitcodeToFile(m, out)) {
    fprintf(stderr, "parad: cannot write %s\n", out);
    rc = 1;
  }
  if (msg) LLVMDisposeMessage(msg);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return rc;
}
