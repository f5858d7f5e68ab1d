#include "sim/experiment/SweepRunner.hpp"

#include "acmesim/Version.hpp"
#include "models/common/InputError.hpp"
#include "models/common/Interrupts.hpp"
#include "models/common/Text.hpp"
#include "sim/report/AtomicFile.hpp"
#include "sim/report/JsonText.hpp"
#include "sim/report/RunMetrics.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace acmesim {

namespace fs = std::filesystem;
using SortedJson = nlohmann::json; // keys in name order, as the experiment files are written

namespace {

SortedJson point_description(const SweepSpec& spec, const SweepPoint& point)
{
  // What makes two runs of a point the same run: --resume compares all of it.
  return SortedJson{{"point", point.id},
              {"scenario", spec.scenario.empty() ? SortedJson(nullptr) : SortedJson(spec.scenario)},
              {"scenario_digest", spec.scenario_digest},
              {"set", spec.overrides_of(point)},
              {"seed", point.seed},
              {"program", VERSION}};
}

// nullopt when the file is missing or is not JSON.
std::optional<SortedJson> read_json(const fs::path& path)
{
  std::ifstream in(path);
  if (!in)
    return std::nullopt;
  try {
    return SortedJson::parse(in);
  } catch (const SortedJson::exception&) {
    return std::nullopt;
  }
}

void write_json_file(const fs::path& path, const SortedJson& j, BadUtf8 bad_bytes)
{
  AtomicFile file(path);
  write_json(file.stream(), j, bad_bytes);
  file.commit();
}

// The diagnostics a failed run printed ("error: ..." lines), or its last words.
std::string stderr_summary(const fs::path& path)
{
  std::ifstream in(path);
  std::vector<std::string> errors;
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    last = line;
    if (line.rfind("error: ", 0) == 0 || line.rfind("internal error: ", 0) == 0)
      errors.push_back(line);
  }
  if (errors.empty())
    return last;
  std::string out = errors.front();
  for (std::size_t i = 1; i < errors.size() && i < 3; ++i)
    out += "; " + errors[i];
  if (errors.size() > 3)
    out += fmt::format("; ({} more in stderr.log)", errors.size() - 3);
  return out;
}

std::string params_csv(const SweepSpec& spec, const SweepPoint& point)
{
  std::string out;
  for (std::size_t i = 0; i < spec.parameters.size(); ++i)
    out += "," + csv_field(i < point.values.size() && point.values[i] ? *point.values[i] : "");
  return out;
}

} // namespace

fs::path point_dir(const fs::path& out, const SweepPoint& point)
{
  return out / "points" / point.id;
}

bool point_finished(const fs::path& out, const SweepSpec& spec, const SweepPoint& point)
{
  const fs::path dir = point_dir(out, point);
  const auto described = read_json(dir / "point.json");
  std::error_code ec;
  return described && *described == point_description(spec, point) && run_error(dir).empty() &&
         fs::is_regular_file(dir / "summary.json", ec);
}

void prepare_point(const fs::path& out, const SweepSpec& spec, const SweepPoint& point)
{
  const fs::path dir = point_dir(out, point);
  fs::create_directories(dir);
  fs::remove(dir / "status.json");
  fs::remove(dir / "summary.json"); // a failed retry must not leave the old one looking current
  // point.json is read back as the point's command line (and by --resume): a byte that is not
  // UTF-8 stops the sweep here instead of running another file.
  try {
    write_json_file(dir / "point.json", point_description(spec, point), BadUtf8::Fail);
  } catch (const SortedJson::type_error&) {
    throw InputError(Diagnostic{spec.source, "", "",
                                "the base scenario's path or a value of point " + point.id +
                                    " holds bytes that are not UTF-8; a sweep records each point's scenario and "
                                    "settings as JSON, so they must be UTF-8 (rename the directory or file, or "
                                    "write the value in UTF-8)"});
  }
}

ChildCommand run_process(const std::string& acmesim, const std::string& scenario,
                         const std::vector<std::string>& overrides, std::uint64_t seed, const fs::path& dir)
{
  ChildCommand c;
  c.argv = {acmesim, "run"};
  if (!scenario.empty())
    c.argv.push_back(scenario);
  for (const auto& o : overrides)
    c.argv.insert(c.argv.end(), {"--set", o});
  c.argv.insert(c.argv.end(), {"--seed", std::to_string(seed), "--out", dir.string(), "--quiet"});
  c.stdout_path = (dir / "stdout.log").string();
  c.stderr_path = (dir / "stderr.log").string();
  return c;
}

ChildCommand point_command(const fs::path& dir, const std::string& acmesim)
{
  const auto described = read_json(dir / "point.json");
  if (!described)
    throw std::runtime_error(fmt::format("cannot read {}", (dir / "point.json").string()));
  const SortedJson& scenario = (*described)["scenario"];
  return run_process(acmesim, scenario.is_null() ? "" : scenario.get<std::string>(),
                     (*described)["set"].get<std::vector<std::string>>(), (*described)["seed"].get<std::uint64_t>(),
                     dir);
}

void write_run_status(const fs::path& dir, const ChildExit& exit)
{
  // The error text of a point that could not start may quote a path that is not UTF-8.
  write_json_file(dir / "status.json",
                  SortedJson{{"exit_code", exit.code},
                             {"signal", exit.signalled ? SortedJson(exit.signal) : SortedJson(nullptr)},
                             {"error", exit.spawn_error.empty() ? SortedJson(nullptr) : SortedJson(exit.spawn_error)}},
                  BadUtf8::Replace);
}

void run_points_locally(const std::vector<fs::path>& dirs, std::size_t parallel, const std::string& acmesim,
                        const SweepProgress& progress)
{
  std::size_t done = 0, failed = 0;
  run_children(
      dirs.size(), parallel, [&](std::size_t i) { return point_command(dirs[i], acmesim); },
      [&](std::size_t i, const ChildExit& exit) {
        write_run_status(dirs[i], exit);
        ++done;
        failed += exit.ok() ? 0 : 1;
        if (progress)
          progress(done, failed);
      });
}

std::string run_error(const fs::path& dir)
{
  std::error_code ec;
  if (!fs::exists(dir / "status.json", ec))
    return "no status.json: the process did not finish (killed, out of time, or its Slurm task never ran)";
  auto status = read_json(dir / "status.json"); // not const: operator[] of a missing key gives null
  if (!status || !status->is_object() || !(*status)["exit_code"].is_number_integer())
    return "status.json is unreadable";
  if ((*status)["error"].is_string())
    return (*status)["error"].get<std::string>();
  if ((*status)["signal"].is_number_integer())
    return fmt::format("killed by signal {}", (*status)["signal"].get<int>());
  const int code = (*status)["exit_code"].get<int>();
  if (code != 0) {
    const std::string said = stderr_summary(dir / "stderr.log");
    return fmt::format("exit code {}{}", code, said.empty() ? "" : ": " + said);
  }
  return "";
}

bool run_interrupted(const fs::path& dir)
{
  auto status = read_json(dir / "status.json");
  return status && status->is_object() && (*status)["exit_code"].is_number_integer() &&
         interrupted_exit_code((*status)["exit_code"].get<int>());
}

SweepOutcome gather_sweep(const fs::path& out, const SweepSpec& spec)
{
  SweepOutcome outcome;
  std::string header_params;
  for (const auto& p : spec.parameters)
    header_params += "," + csv_field(p);
  AtomicFile results(out / "results.csv");
  AtomicFile points(out / "points.csv");
  results.stream() << "point" << header_params << ",seed,metric,value\n";
  points.stream() << "point" << header_params << ",seed,status,error\n";
  for (const auto& point : spec.points) {
    const fs::path dir = point_dir(out, point);
    const std::string prefix = point.id + params_csv(spec, point) + "," + std::to_string(point.seed);
    std::string error = run_error(dir);
    std::vector<RunMetric> metrics;
    if (error.empty()) {
      try {
        metrics = read_run_metrics(dir);
      } catch (const std::runtime_error& e) {
        error = e.what();
      }
    }
    if (!error.empty()) {
      const bool interrupted = run_interrupted(dir);
      outcome.failures.push_back({point.id, error, interrupted});
      points.stream() << prefix << (interrupted ? ",interrupted," : ",failed,") << csv_field(error) << '\n';
      continue;
    }
    ++outcome.finished;
    points.stream() << prefix << ",finished,\n";
    for (const auto& m : metrics)
      results.stream() << prefix << ',' << m.name << ',' << fmt::format("{}", m.value) << '\n';
  }
  results.commit();
  points.commit();
  return outcome;
}

std::size_t largest_sample(const fs::path& results_csv)
{
  std::ifstream in(results_csv);
  std::string line;
  std::map<std::string, std::size_t> samples; // by parameters and metric
  std::size_t largest = 0;
  if (!std::getline(in, line)) // the header: point,<parameters...>,seed,metric,value
    return 0;
  while (std::getline(in, line)) {
    // Metric names and values hold no comma; parameters may (quoted), so count from the end.
    const auto value = line.rfind(',');
    const auto metric = value == std::string::npos || value == 0 ? std::string::npos : line.rfind(',', value - 1);
    const auto seed = metric == std::string::npos || metric == 0 ? std::string::npos : line.rfind(',', metric - 1);
    const auto point = line.find(',');
    if (seed == std::string::npos || point > seed || value + 1 == line.size()) // no value: an empty sample's
      continue;
    const std::string key = line.substr(point, seed - point) + line.substr(metric, value - metric);
    largest = std::max(largest, ++samples[key]);
  }
  return largest;
}

} // namespace acmesim
