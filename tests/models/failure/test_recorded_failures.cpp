// Recorded failure lists: parsing, validation with file:line diagnostics, round trip, replay.
#include "models/common/InputError.hpp"
#include "models/failure/FailureModel.hpp"
#include "models/failure/RecordedFailures.hpp"

#include "tests/support/InputErrors.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <sstream>

using namespace acmesim;
using Catch::Contains;

namespace {

// Pod "t": 8 nodes (t-n0..t-n7), 4 per leaf (t-leaf0, t-leaf1).
Topology make_topology()
{
  ClusterSpec spec;
  spec.name = "t";
  PodSpec pod;
  pod.name = "t";
  pod.nodes = 8;
  pod.fabric.nodes_per_leaf = 4;
  spec.pods.push_back(pod);
  return Topology(spec);
}

std::vector<FailureEvent> parse(const std::string& text)
{
  std::istringstream in(text);
  return parse_failure_list(in, "test.csv", make_topology());
}

std::vector<Diagnostic> errors_of(const std::string& text)
{
  return testing::input_errors([&] { parse(text); });
}

// The single problem of a list whose header is fine and whose row 2 is bad.
Diagnostic bad_row(const std::string& row)
{
  const auto errors = errors_of("time_s,component,target,category,repair_s,repair_kind\n" + row + "\n");
  INFO(InputError(errors).what());
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].where == "test.csv:2");
  return errors[0];
}

} // namespace

TEST_CASE("a failure list parses with columns in any order, CRLF endings and optional repair kind")
{
  const auto events = parse("repair_s,target,time_s,category,component\r\n"
                            "7200,t-n3,3600,node_failure,node\r\n"
                            "\r\n"
                            "60,t-leaf1,100.5,network_error,leaf_switch\r\n"
                            "0,storage,3600,storage_error,storage\r\n"
                            "1,t-n0,50,cuda_error,gpu\r\n");
  REQUIRE(events.size() == 4);
  // Sorted by time, file order kept at equal times.
  CHECK(events[0].time_s == 50);
  CHECK(events[0].component == Component::Gpu);
  CHECK(events[0].target == 0);
  CHECK(events[1].time_s == 100.5);
  CHECK(events[1].component == Component::LeafSwitch);
  CHECK(events[1].target == 1);
  CHECK(events[2].component == Component::Node);
  CHECK(events[2].target == 3);
  CHECK(events[2].repair_s == 7200);
  CHECK(events[2].category == FailureCategory::NodeFailure);
  CHECK_FALSE(events[2].replacement);
  CHECK_FALSE(events[2].excess);
  CHECK(events[3].component == Component::Storage);
  CHECK(events[3].target == 0);
}

TEST_CASE("repair_kind: reboot, replacement, or empty for reboot")
{
  const auto events = parse("time_s,component,target,category,repair_s,repair_kind\n"
                            "1,nic,t-n1,network_error,10,replacement\n"
                            "2,nvlink,t-n2,nvlink_error,10,reboot\n"
                            "3,nvlink,t-n2,nvlink_error,10,\n");
  REQUIRE(events.size() == 3);
  CHECK(events[0].replacement);
  CHECK_FALSE(events[1].replacement);
  CHECK_FALSE(events[2].replacement);
  const Diagnostic d = bad_row("1,nic,t-n1,network_error,10,swap");
  CHECK(d.key == "repair_kind");
  CHECK(d.value == "swap");
}

TEST_CASE("a header-only list has no failures, with or without a byte order mark")
{
  CHECK(parse("time_s,component,target,category,repair_s\n").empty());
  CHECK(parse("\xEF\xBB\xBFtime_s,component,target,category,repair_s\n1,node,t-n0,node_failure,1\n").size() == 1);
}

TEST_CASE("write then read gives identical events")
{
  const Topology topo = make_topology();
  FailureSpec spec = acme_failure_defaults();
  spec.neighbour_probability = 0.5;
  FailureModel model(spec, topo, 99);
  std::vector<FailureEvent> events;
  while (model.next_time() < 3e8)
    events.push_back(model.pop());
  // Awkward values: no short decimal form, denormal-sized, exact integers.
  events.push_back({0.1 + 0.2, Component::Storage, 0, FailureCategory::StorageError, 1.0 / 3, true, false});
  events.push_back({1e9, Component::LeafSwitch, 1, FailureCategory::NetworkError, 5e-324, false, false});
  events.push_back({0, Component::Nic, 7, FailureCategory::NcclTimeout, 0, false, false});
  std::stable_sort(events.begin(), events.end(), [](auto& a, auto& b) { return a.time_s < b.time_s; });
  REQUIRE(events.size() > 30);
  for (auto& e : events)
    e.excess = false; // not part of the format

  std::ostringstream out;
  write_failure_list(out, events, topo);
  CHECK_THAT(out.str(), Catch::StartsWith("time_s,component,target,category,repair_s,repair_kind\n"));
  std::istringstream in(out.str());
  const auto back = parse_failure_list(in, "written.csv", topo);
  REQUIRE(back.size() == events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    CHECK(back[i].time_s == events[i].time_s);
    CHECK(back[i].component == events[i].component);
    CHECK(back[i].target == events[i].target);
    CHECK(back[i].category == events[i].category);
    CHECK(back[i].repair_s == events[i].repair_s);
    CHECK(back[i].replacement == events[i].replacement);
  }
}

TEST_CASE("bad numbers are rejected with file, line, column and value")
{
  for (const std::string value : {"abc", "-1", "nan", "inf", "1e10", "", "1.5.2"}) {
    const Diagnostic d = bad_row(value + ",node,t-n0,node_failure,60,reboot");
    CHECK(d.key == "time_s");
    CHECK(d.value == value);
    CHECK_THAT(d.message, Contains(">= 0"));
  }
  const Diagnostic repair = bad_row("10,node,t-n0,node_failure,-5,reboot");
  CHECK(repair.key == "repair_s");
  CHECK(repair.value == "-5");
  CHECK_THAT(repair.to_string(), Contains("test.csv:2"));
  CHECK_THAT(repair.to_string(), Contains("repair_s"));
}

TEST_CASE("unknown components and categories list the valid names")
{
  const Diagnostic c = bad_row("10,switch,t-leaf0,network_error,60,reboot");
  CHECK(c.key == "component");
  CHECK(c.value == "switch");
  CHECK_THAT(c.message, Contains("leaf_switch"));
  const Diagnostic k = bad_row("10,node,t-n0,NodeFailure,60,reboot");
  CHECK(k.key == "category");
  CHECK_THAT(k.message, Contains("node_failure"));
}

TEST_CASE("targets of the wrong kind are rejected")
{
  const Diagnostic leaf_for_node = bad_row("10,node,t-leaf0,node_failure,60,reboot");
  CHECK(leaf_for_node.key == "target");
  CHECK(leaf_for_node.value == "t-leaf0");
  CHECK_THAT(leaf_for_node.message, Contains("a node name of the cluster (e.g. t-n0)"));
  CHECK_THAT(leaf_for_node.message, Contains("leaf_switch"));
  const Diagnostic node_for_leaf = bad_row("10,leaf_switch,t-n0,network_error,60,reboot");
  CHECK_THAT(node_for_leaf.message, Contains("a leaf switch name of the cluster (e.g. t-leaf0)"));
  const Diagnostic unknown = bad_row("10,gpu,t-n8,cuda_error,60,reboot");
  CHECK(unknown.value == "t-n8");
  const Diagnostic storage = bad_row("10,storage,t-n0,storage_error,60,reboot");
  CHECK_THAT(storage.message, Contains("storage"));
}

TEST_CASE("wrong field counts, missing and unknown columns, empty files are rejected")
{
  const Diagnostic fields = bad_row("10,node,t-n0,node_failure");
  CHECK_THAT(fields.message, Contains("expected 6 comma-separated fields"));
  CHECK_THAT(fields.message, Contains("found 4"));

  const auto missing = errors_of("time_s,component,target,repair_s\n10,node,t-n0,60\n");
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].where == "test.csv:1");
  CHECK(missing[0].key == "category");
  CHECK_THAT(missing[0].message, Contains("missing column"));

  const auto unknown = errors_of("time_s,component,target,category,repair_s,cause\n");
  REQUIRE(unknown.size() == 1);
  CHECK(unknown[0].key == "cause");
  CHECK_THAT(unknown[0].message, Contains("unknown column"));

  const auto empty = errors_of("\n  \n");
  REQUIRE(empty.size() == 1);
  CHECK(empty[0].where == "test.csv");
  CHECK_THAT(empty[0].message, Contains("empty file"));
}

TEST_CASE("every bad row is reported, not only the first")
{
  const auto errors = errors_of("time_s,component,target,category,repair_s\n"
                                "1,node,t-n0,node_failure,1\n"
                                "x,node,t-n0,node_failure,1\n"
                                "1,node,t-n0,node_failure,1\n"
                                "2,gpu,t-leaf0,oops,-1\n");
  REQUIRE(errors.size() == 4);
  CHECK(errors[0].where == "test.csv:3");
  CHECK(errors[0].key == "time_s");
  CHECK(errors[1].where == "test.csv:5");
  CHECK(errors[1].key == "repair_s");
  CHECK(errors[2].key == "target");
  CHECK(errors[3].key == "category");
}

TEST_CASE("read_failure_list names a missing file")
{
  try {
    read_failure_list("/nonexistent/failures.csv", make_topology());
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.diagnostics().at(0).where == "/nonexistent/failures.csv");
  }
}

TEST_CASE("a recorded source replays its events in order")
{
  RecordedFailureSource source(parse("time_s,component,target,category,repair_s\n"
                                     "5,node,t-n1,node_failure,1\n"
                                     "2,node,t-n2,node_failure,1\n"));
  CHECK(source.next_time() == 2);
  CHECK(source.pop().target == 2);
  CHECK(source.next_time() == 5);
  CHECK(source.pop().target == 1);
  CHECK(std::isinf(source.next_time()));
  CHECK_THROWS_AS(source.pop(), std::logic_error);
}
