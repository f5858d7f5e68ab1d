// The failure rate a job's checkpoint interval is planned on, from a recorded list or the model.
#include "models/failure/FailureModel.hpp"
#include "models/failure/FailureRates.hpp"
#include "tests/support/TinyCluster.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;

namespace {

FailureEvent failure(double t, Component c)
{
  FailureEvent e;
  e.time_s = t;
  e.component = c;
  return e;
}

} // namespace

TEST_CASE("a recorded list's node rate counts node-level failures per node and second of its span")
{
  const std::vector<FailureEvent> list{failure(100, Component::Node), failure(200, Component::LeafSwitch),
                                       failure(300, Component::Gpu), failure(400, Component::Storage),
                                       failure(1000, Component::Nic)};
  // 3 node-level failures over 1000 s on 10 nodes.
  CHECK(recorded_node_failure_rate(list, 10) == Approx(3.0 / (10 * 1000)));
  CHECK(recorded_node_failure_rate({}, 10) == 0);
  // A list that ends before a second spans one second.
  CHECK(recorded_node_failure_rate({failure(0, Component::Node)}, 2) == Approx(0.5));

  const Topology topology(acmesim::testing::tiny_cluster(10, 5));
  FailureSpec recorded;
  recorded.source = FailureSpec::Source::Recorded;
  const JobFailureRate rate = job_failure_rate(recorded, list, topology);
  REQUIRE(rate);
  CHECK(rate(0, 4) == Approx(4 * 3.0 / (10 * 1000)));
  CHECK_FALSE(job_failure_rate(recorded, {}, topology)); // nothing recorded: no rate
  CHECK_FALSE(job_failure_rate(FailureSpec{}, list, topology)); // no failures
}

TEST_CASE("the model's job failure rate is the model's expectation")
{
  const Topology topology(acmesim::testing::tiny_cluster(10, 5));
  FailureSpec spec = acme_failure_defaults();
  spec.source = FailureSpec::Source::Model;
  const JobFailureRate rate = job_failure_rate(spec, {}, topology);
  REQUIRE(rate);
  CHECK(rate(0, 2) == expected_job_failure_rate(spec, topology, 0, 2));
  CHECK(rate(0, 4) > rate(0, 2));
}
