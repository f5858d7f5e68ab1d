#include "sim/report/RunSummary.hpp"

#include "models/common/InputError.hpp"

#include <fstream>
#include <stdexcept>

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

RunSummary run_summary_from_json(const Json& json)
{
  try {
    return json.get<RunSummary>();
  } catch (const JsonFieldError& e) {
    throw std::runtime_error("summary.json " + std::string(e.what()));
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("summary.json: ") + e.what());
  }
}

RunSummary read_run_summary(const std::filesystem::path& dir)
{
  const std::string path = (dir / "summary.json").string();
  std::ifstream in(path);
  if (!in)
    throw InputError(Diagnostic{path, "", "", "cannot read the file"});
  try {
    return Json::parse(in).get<RunSummary>();
  } catch (const JsonFieldError& e) {
    throw InputError(Diagnostic{path, e.path(), "", e.why()});
  } catch (const nlohmann::json::exception& e) {
    throw InputError(Diagnostic{path, "", "", e.what()});
  }
}

} // namespace acmesim
