#pragma once
// Streams Philly's cluster_job_log (a JSON array of job objects) through nlohmann's SAX
// interface: no document is built, and each job is handed on as soon as its object closes, so
// time and memory stay proportional to one job. It keeps only the fields the reader maps
// (PhillyRawJob.hpp) and says nothing about whether their values are right: that is the
// mapping's part (PhillyReader.cpp).
#include "models/common/Text.hpp"
#include "models/traces/PhillyRawJob.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace acmesim::philly {

class JobLogParser final : public nlohmann::json::json_sax_t {
public:
  // Called once for every element of the top-level array, in order: for a job object when it
  // closes, for anything else (not a job) as soon as it starts.
  using JobHandler = std::function<void(const RawJob&)>;

  // `text` is the whole input, for the line and column of a syntax error; both strings must
  // outlive the parser.
  JobLogParser(const std::string& source, const std::string& text, JobHandler on_job);

  // The keys of the first job object, in file order ("" before one has closed).
  std::string first_job_keys() const { return join_names(first_keys_); }

  bool null() override;
  bool boolean(bool v) override;
  bool number_integer(number_integer_t v) override;
  bool number_unsigned(number_unsigned_t v) override;
  bool number_float(number_float_t, const string_t& raw) override;
  bool string(string_t& v) override;
  bool binary(binary_t&) override;
  bool start_object(std::size_t) override;
  bool start_array(std::size_t) override;
  bool end_object() override;
  bool end_array() override;
  bool key(string_t& name) override;
  // InputError at "<source>:<line>:<column>": a syntax error is an error whatever the policy.
  bool parse_error(std::size_t position, const std::string&, const nlohmann::json::exception& e) override;

private:
  // What the object or array being read is, by where it stands in the log.
  enum class Role : std::uint8_t { Jobs, Job, Attempts, Attempt, Detail, Server, Gpus, Skip };
  // The keys read; any other is Other.
  enum class Key : std::uint8_t { Other, JobId, Status, Submitted, User, Attempts, StartTime, EndTime, Detail, Gpus };
  struct Frame {
    Role role;
    Key key = Key::Other;  // objects: the key of the value being read
    std::size_t count = 0; // arrays: elements begun so far
    bool has_gpus = false; // servers: whether a "gpus" key was seen
  };

  // The keys read, by the kind of object they are in.
  static constexpr std::array<std::tuple<Role, std::string_view, Key>, 9> KEYS{{
      {Role::Job, "jobid", Key::JobId},
      {Role::Job, "status", Key::Status},
      {Role::Job, "submitted_time", Key::Submitted},
      {Role::Job, "user", Key::User},
      {Role::Job, "attempts", Key::Attempts},
      {Role::Attempt, "start_time", Key::StartTime},
      {Role::Attempt, "end_time", Key::EndTime},
      {Role::Attempt, "detail", Key::Detail},
      {Role::Server, "gpus", Key::Gpus}}};
  // Where the value of each key of a job object is kept.
  static constexpr std::array<std::pair<Key, JsonValue RawJob::*>, 5> JOB_FIELDS{{
      {Key::JobId, &RawJob::jobid},
      {Key::Status, &RawJob::status},
      {Key::Submitted, &RawJob::submitted_time},
      {Key::User, &RawJob::user},
      {Key::Attempts, &RawJob::attempts}}};

  bool open(JsonValue::Kind kind);
  bool close();
  Role place_container(JsonValue::Kind kind);
  bool record(JsonValue value);
  [[noreturn]] void throw_not_a_job_log() const;

  const std::string& source_;
  const std::string& text_;
  JobHandler on_job_;
  std::vector<Frame> stack_;
  RawJob job_;
  std::vector<std::string> first_keys_; // of the first job object, for messages
  bool keys_recorded_ = false;
};

} // namespace acmesim::philly
