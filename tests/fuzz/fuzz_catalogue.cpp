// An evaluation dataset catalogue.
#include "sim/config/DatasetCatalogueFile.hpp"
#include "tests/fuzz/FuzzInput.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  acmesim::DiagnosticList diags;
  return acmesim::fuzz::accept_input_errors(
      [&] { acmesim::parse_dataset_catalogue(acmesim::fuzz::text_of(data, size), "fuzz.yaml", diags); });
}
