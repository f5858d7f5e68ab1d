// The `scheduler:` section: scheduler and placement names and the scheduler's parameters.
#include "tests/support/ScenarioTestInputs.hpp"

#include <catch2/catch.hpp>

using namespace acmesim;
using namespace acmesim::testing;
using Catch::Contains;
using Catch::StartsWith;

TEST_CASE("scheduler parameters: given values kept, the others defaulted")
{
  const Scenario s =
      load(SEREN + WORKLOAD + "scheduler: {name: easy-backfill, placement: spread, backfill_depth: 50}\n");
  CHECK(s.scheduler.name == "easy-backfill");
  CHECK(s.scheduler.placement == "spread");
  CHECK(s.scheduler.params.at("backfill_depth") == 50);
}

TEST_CASE("an unknown scheduler lists the valid ones")
{
  const Diagnostic d = single_error(SEREN + WORKLOAD + "scheduler:\n  name: sjf\n");
  CHECK(d.where == "test.yaml:13:9");
  CHECK(d.key == "scheduler.name");
  CHECK(d.value == "sjf");
  CHECK_THAT(d.message, Contains("fifo") && Contains("easy-backfill"));
}

TEST_CASE("an unknown placement policy lists the valid ones")
{
  const Diagnostic d = single_error(SEREN + WORKLOAD + "scheduler: {placement: best}\n");
  CHECK(d.key == "scheduler.placement");
  CHECK(d.value == "best");
  CHECK_THAT(d.message, Contains("pack") && Contains("spread") && Contains("random"));
}

TEST_CASE("a parameter the chosen scheduler does not declare is rejected")
{
  const Diagnostic fifo = single_error(SEREN + WORKLOAD + "scheduler: {name: fifo, backfill_depth: 10}\n");
  CHECK(fifo.key == "scheduler.backfill_depth");
  CHECK(fifo.where == "test.yaml:12:25");
  CHECK_THAT(fifo.message, Contains("'fifo' takes no parameters"));

  const Diagnostic easy = single_error(SEREN + WORKLOAD + "scheduler: {name: easy-backfill, depth: 10}\n");
  CHECK(easy.key == "scheduler.depth");
  CHECK_THAT(easy.message, Contains("backfill_depth"));

  // The factor backfilling took is now the run's estimate model: the error says where it went.
  const Diagnostic moved =
      single_error(SEREN + WORKLOAD + "scheduler: {name: easy-backfill, runtime_estimate_factor: 2}\n");
  CHECK(moved.key == "scheduler.runtime_estimate_factor");
  CHECK_THAT(moved.message, Contains("workload.estimates: factor with workload.estimate_factor"));

  // `params:` is a plugin's: the error shows where a built-in's parameter goes instead.
  const Diagnostic nested =
      single_error(SEREN + WORKLOAD + "scheduler: {name: easy-backfill, params: {backfill_depth: 10}}\n");
  CHECK(nested.key == "scheduler.params");
  CHECK_THAT(nested.message, Contains("parameters are keys of the section itself, as scheduler.backfill_depth"));
}

TEST_CASE("multifactor's QoS of a job type is a factor between 0 and 1")
{
  const Scenario s = load(SEREN + WORKLOAD + "scheduler: {name: multifactor, qos_eval: 0.25}\n");
  CHECK(s.scheduler.params.at("qos_eval") == 0.25);
  CHECK(s.scheduler.params.at("qos_pretrain") == 1.0);
  const Diagnostic d = single_error(SEREN + WORKLOAD + "scheduler: {name: multifactor, qos_eval: 1.5}\n");
  CHECK(d.key == "scheduler.qos_eval");
  CHECK(d.value == "1.5");
  CHECK_THAT(d.message, Contains("between 0 and 1"));
}

TEST_CASE("quota's reservations may not add up to more than a pod")
{
  const Diagnostic d =
      single_error(SEREN + WORKLOAD + "scheduler: {name: quota, reserved_pretrain: 0.8, reserved_sft: 0.3}\n");
  CHECK(d.key == "scheduler");
  CHECK(d.where == "test.yaml:12:12");
  CHECK_THAT(d.message, Contains("reserved_pretrain + reserved_eval") && Contains("is 1.1") &&
                            Contains("at most 1 in all"));
  const Scenario fine =
      load(SEREN + WORKLOAD + "scheduler: {name: quota, reserved_pretrain: 0.6, reserved_sft: 0.4}\n");
  CHECK(fine.scheduler.params.at("reserved_sft") == 0.4);
}

TEST_CASE("a scheduler plugin in a program built without the plugins library is refused naming the key")
{
  // This test program links the scenario loader and the policies, not sim/plugins: no loader of
  // external schedulers registered itself, so naming one is bad input, not a crash.
  const Diagnostic d = single_error(SEREN + WORKLOAD + "scheduler: {plugin: libx.so}\n");
  CHECK(d.key == "scheduler.plugin");
  CHECK_THAT(d.message, Contains("this program was built without plugin schedulers"));
  CHECK_THAT(single_error(SEREN + WORKLOAD + "scheduler: {python: x.py, class: X}\n").message,
             Contains("this program was built without python schedulers"));
}
