#include "sim/report/RunSummary.hpp"

#include "models/common/InputError.hpp"
#include "sim/report/ResultsDir.hpp"

#include <fstream>

namespace acmesim {

void to_json(Json& j, const StateHours& hours)
{
  to_json(j, hours.by_state);
  j[std::string(STATE_HOURS_TOTAL)] = hours.total;
}

void from_json(const Json& j, StateHours& hours)
{
  Json by_state = j;
  json_detail::read(by_state, STATE_HOURS_TOTAL, hours.total);
  by_state.erase(std::string(STATE_HOURS_TOTAL));
  from_json(by_state, hours.by_state);
}

namespace {

// A summary document read through the field declarations; a problem is an InputError naming
// `where`, the field and why.
RunSummary summary_from(const Json& json, const std::string& where)
{
  try {
    return json.get<RunSummary>();
  } catch (const JsonFieldError& e) {
    throw InputError(Diagnostic{where, e.path(), "", e.why()});
  } catch (const nlohmann::json::exception& e) {
    throw InputError(Diagnostic{where, "", "", e.what()});
  }
}

} // namespace

RunSummary run_summary_from_json(const Json& json) { return summary_from(json, "summary.json"); }

RunSummary read_run_summary(const std::filesystem::path& dir)
{
  require_whole_results(dir);
  const std::string path = (dir / "summary.json").string();
  std::ifstream in(path);
  if (!in)
    throw InputError(Diagnostic{path, "", "", "cannot read the file"});
  Json json;
  try {
    json = Json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(Diagnostic{path, "", "", e.what()});
  }
  return summary_from(json, path);
}

} // namespace acmesim
