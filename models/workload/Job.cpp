#include "models/workload/Job.hpp"

#include <algorithm>

namespace acmesim {

namespace {
constexpr std::array<std::string_view, 6> TYPE_NAMES{"Pretrain", "Eval", "SFT", "MLLM", "Debug", "Other"};
constexpr std::array<std::string_view, 5> STATE_NAMES{"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL"};

template <std::size_t N> std::string join(const std::array<std::string_view, N>& names)
{
  std::string out;
  for (auto n : names) {
    if (!out.empty())
      out += ", ";
    out += n;
  }
  return out;
}
} // namespace

std::string_view to_string(JobType type) { return TYPE_NAMES[static_cast<std::size_t>(type)]; }
std::string_view to_string(JobState state) { return STATE_NAMES[static_cast<std::size_t>(state)]; }

std::optional<JobType> parse_job_type(std::string_view name)
{
  for (std::size_t i = 0; i < TYPE_NAMES.size(); ++i)
    if (TYPE_NAMES[i] == name)
      return static_cast<JobType>(i);
  return std::nullopt;
}

std::optional<JobState> parse_job_state(std::string_view name)
{
  for (std::size_t i = 0; i < STATE_NAMES.size(); ++i)
    if (STATE_NAMES[i] == name)
      return static_cast<JobState>(i);
  return std::nullopt;
}

std::string job_type_names() { return join(TYPE_NAMES); }
std::string job_state_names() { return join(STATE_NAMES); }

void normalise_workload(Workload& workload)
{
  auto& jobs = workload.jobs;
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.submit_s < b.submit_s; });
  const double origin = jobs.empty() ? 0.0 : jobs.front().submit_s;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].id = static_cast<JobId>(i);
    jobs[i].submit_s -= origin;
  }
  for (double& t : workload.eval_campaigns_s)
    t -= origin;
}

} // namespace acmesim
