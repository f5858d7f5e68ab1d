#pragma once
// Errors in user input (scenario files, traces, command-line overrides).
//
// Every problem is collected as a Diagnostic naming where it is (file and line, or the
// --set option it came from), the key or field, the offending value and what was expected.
// Loaders collect all problems they can find and throw one InputError at the end, so a user
// fixes a file in one pass; the command line turns InputError into exit code 2.
#include <stdexcept>
#include <string>
#include <vector>

namespace acmesim {

struct Diagnostic {
  std::string where;    // "scenario.yaml:12:3", "trace.csv:57" or "--set cluster.nodes=abc"
  std::string key;      // dotted key path or CSV column; may be empty
  std::string value;    // offending value as written; may be empty
  std::string message;  // what was expected

  std::string to_string() const;
};

class InputError : public std::runtime_error {
public:
  explicit InputError(std::vector<Diagnostic> diagnostics);
  explicit InputError(Diagnostic diagnostic);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

private:
  std::vector<Diagnostic> diagnostics_;
};

// Accumulates diagnostics and throws them together.
class DiagnosticList {
public:
  void add(Diagnostic d) { items_.push_back(std::move(d)); }
  void add(std::string where, std::string key, std::string value, std::string message)
  {
    items_.push_back({std::move(where), std::move(key), std::move(value), std::move(message)});
  }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  void append(const DiagnosticList& other) { items_.insert(items_.end(), other.items_.begin(), other.items_.end()); }
  // Throws InputError holding every diagnostic collected so far, if there is any.
  void throw_if_any() const;

private:
  std::vector<Diagnostic> items_;
};

} // namespace acmesim
