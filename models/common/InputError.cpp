#include "models/common/InputError.hpp"

#include <fmt/format.h>


namespace acmesim {

namespace {
std::string join_messages(const std::vector<Diagnostic>& ds)
{
  std::string out;
  for (const Diagnostic& d : ds)
    out += (out.empty() ? "" : "\n") + d.to_string();
  return out;
}
} // namespace

std::string Diagnostic::to_string() const
{
  std::string out = where.empty() ? std::string("input") : where;
  out += ": ";
  if (!key.empty())
    out += "key '" + key + "'";
  if (!value.empty())
    out += (key.empty() ? "value '" : ", value '") + value + "'";
  if (!key.empty() || !value.empty())
    out += ": ";
  out += message;
  return out;
}

InputError::InputError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join_messages(diagnostics)), diagnostics_(std::move(diagnostics))
{
}

InputError::InputError(Diagnostic diagnostic) : InputError(std::vector<Diagnostic>{std::move(diagnostic)}) {}

void DiagnosticList::throw_if_any() const
{
  if (!items_.empty())
    throw InputError(items_);
}

} // namespace acmesim
