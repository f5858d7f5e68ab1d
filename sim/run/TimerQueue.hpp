#pragma once
// Timers of the run, ordered by (time, key, seq): by time, then by job or node id, then in the
// order they were set. This is the documented order of same-time events (never a container's or
// the engine's accident).
#include "models/workload/Job.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <tuple>
#include <vector>

namespace acmesim {

// Timers that each carry a payload (a repair, a job whose CPU work ends).
template <typename Payload>
class TimerHeap {
public:
  void push(double time, std::uint32_t key, Payload payload)
  {
    heap_.push(Timer{time, key, next_seq_++, std::move(payload)});
  }
  double next_time() const { return heap_.empty() ? std::numeric_limits<double>::infinity() : heap_.top().time; }
  // The earliest payload due at or before `now`, removed; nullopt when none is due.
  std::optional<Payload> pop_due(double now)
  {
    if (heap_.empty() || heap_.top().time > now)
      return std::nullopt;
    Payload payload = heap_.top().payload;
    heap_.pop();
    return payload;
  }

private:
  struct Timer {
    double time;
    std::uint32_t key;
    std::uint64_t seq;
    Payload payload;
    bool operator>(const Timer& o) const { return std::tie(time, key, seq) > std::tie(o.time, o.key, o.seq); }
  };
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> heap_;
  std::uint64_t next_seq_ = 0;
};

// At most one live timer per job: setting a new one, or disarming, voids the previous one.
// Void timers stay in the heap until they reach its top (cheaper than removing them).
class JobTimers {
public:
  void arm(JobId job, double time)
  {
    live(job) = ++next_seq_;
    heap_.push(Timer{time, job, next_seq_});
  }
  void disarm(JobId job) { live(job) = 0; }
  double next_time() const
  {
    prune();
    return heap_.empty() ? std::numeric_limits<double>::infinity() : heap_.top().time;
  }
  // The job whose live timer is the earliest due at or before `now`, disarmed; nullopt if none.
  std::optional<JobId> pop_due(double now)
  {
    prune();
    if (heap_.empty() || heap_.top().time > now)
      return std::nullopt;
    const JobId job = heap_.top().job;
    heap_.pop();
    live_[job] = 0;
    return job;
  }

private:
  struct Timer {
    double time;
    JobId job;
    std::uint64_t seq;
    bool operator>(const Timer& o) const { return std::tie(time, job, seq) > std::tie(o.time, o.job, o.seq); }
  };
  std::uint64_t& live(JobId job)
  {
    if (job >= live_.size())
      live_.resize(job + 1, 0);
    return live_[job];
  }
  void prune() const
  {
    while (!heap_.empty() && live_[heap_.top().job] != heap_.top().seq)
      heap_.pop();
  }

  mutable std::priority_queue<Timer, std::vector<Timer>, std::greater<>> heap_;
  std::vector<std::uint64_t> live_; // per job: seq of its live timer, 0 if none
  std::uint64_t next_seq_ = 0;
};

} // namespace acmesim
