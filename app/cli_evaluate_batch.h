#pragma once
/// @file cli_evaluate_batch.h
/// Private to app/: `rigsmith evaluate` over many files (issue 38): `evaluate
/// DIR`, `evaluate FILE...` or `evaluate @LIST`, each file in its own process
/// (this executable's single-file `evaluate`) under a per-file time limit,
/// `--jobs N` at a time, one JSON report per file in `--out DIR` plus
/// `summary.json` and `summary.md` (core figures per group of `--groups`).

#include "app/cli_common.h"

#include <string>
#include <vector>

namespace rig::app {

/// The value options and flags of `evaluate`, both forms.
extern const std::vector<std::string> evaluateValueOptions;
extern const std::vector<std::string> evaluateFlagOptions;

/// True when the arguments ask for the batch form: several inputs, a folder,
/// an @LIST, or --out.
bool isEvaluateBatch(const Args& a);

/// `--methods all|default|ID,...`: the weight methods scored, in the table's
/// order (`fallback` when absent). @throws rig::Error naming an unknown method.
std::vector<std::string> parseEvaluateMethods(const Args& a, const std::string& fallback);

/// The batch form. Returns 0 when every file was evaluated (whatever its
/// outcome), 1 when any crashed or ran past its time limit, 2 for bad arguments.
int cmdEvaluateBatch(const Args& a);

/// Reads the per-file reports of `dir` and writes summary.json and summary.md
/// there; `groups` are id lists (one id, a file stem, per line), each a table.
/// Returns the summary.
json summarizeEvaluateReports(const std::string& dir, const std::vector<std::string>& ids,
                              const std::vector<std::string>& groups, const json& run);

} // namespace rig::app
