#include "models/traces/AcmeTraceWriter.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

namespace acmesim {

namespace {

// "2023-03-01 00:18:22+08:00", with milliseconds when the time has a fraction.
std::string timestamp(double epoch_s, int utc_offset_s)
{
  using namespace std::chrono;
  const double local = epoch_s + utc_offset_s;
  const double whole = std::floor(local);
  const auto millis = static_cast<int>(std::lround((local - whole) * 1000));
  const sys_seconds t{seconds{static_cast<long long>(whole) + (millis == 1000 ? 1 : 0)}};
  const auto day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss hms{t - day};
  char buf[64];
  const int off_h = std::abs(utc_offset_s) / 3600, off_m = std::abs(utc_offset_s) % 3600 / 60;
  const char sign = utc_offset_s < 0 ? '-' : '+';
  if (millis % 1000 == 0)
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02lld:%02lld:%02lld%c%02d:%02d", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                  static_cast<long long>(hms.hours().count()), static_cast<long long>(hms.minutes().count()),
                  static_cast<long long>(hms.seconds().count()), sign, off_h, off_m);
  else
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02u %02lld:%02lld:%02lld.%03d%c%02d:%02d", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                  static_cast<long long>(hms.hours().count()), static_cast<long long>(hms.minutes().count()),
                  static_cast<long long>(hms.seconds().count()), millis, sign, off_h, off_m);
  return buf;
}

std::string seconds_text(double s)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  std::string text = buf;
  text.erase(text.find_last_not_of('0') + 1); // 12.500 -> 12.5, 12.000 -> 12.
  if (text.back() == '.')
    text.pop_back();
  return text;
}

} // namespace

void write_acme_trace(std::ostream& out, const Workload& workload, double origin_epoch_s, int utc_offset_s)
{
  out << "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time\n";
  for (const Job& j : workload.jobs) {
    const double submit = origin_epoch_s + j.submit_s;
    out << j.name << ',' << j.user << ',' << j.trace_nodes << ',' << j.gpus << ',' << j.cpus << ','
        << to_string(j.type) << ',' << to_string(j.final_state) << ',' << timestamp(submit, utc_offset_s) << ','
        << timestamp(submit, utc_offset_s) << ',' << timestamp(submit + j.duration_s, utc_offset_s) << ','
        << seconds_text(j.duration_s) << ",0," << seconds_text(j.duration_s * j.gpus) << '\n';
  }
}

} // namespace acmesim
