#include "analyzer/analysis/OrderingPart.h"

#include <stdexcept>

namespace streamlint::ordering {

nlohmann::json OrderingPartFacts::toJson() const {
  return nlohmann::json::parse(toJsonText(facts));
}

PartFactsPtr OrderingPartFacts::withoutFixes() const {
  // Its conditional fixes only ever complete findings' fixes: with those
  // dropped there is nothing for them to decide.
  auto copy = std::make_shared<OrderingPartFacts>(*this);
  copy->facts.fixes.clear();
  return copy;
}

PartFactsPtr orderingPartFacts(OrderingFacts facts) {
  auto part = std::make_shared<OrderingPartFacts>();
  part->facts = std::move(facts);
  return part;
}

WholeProgramPart orderingPart() {
  WholeProgramPart part;
  part.id = kOrderingPart;
  part.read = [](const nlohmann::json &j) -> PartFactsPtr {
    auto part = std::make_shared<OrderingPartFacts>();
    std::string error;
    if (!fromJsonText(j.dump(), part->facts, error))
      throw std::runtime_error(error);
    return part;
  };
  part.amend = [](const std::vector<PartFactsPtr> &units, std::vector<Finding> &findings) {
    OrderingFacts program;
    for (const PartFactsPtr &unit : units)
      program.addUnit(static_cast<const OrderingPartFacts &>(*unit).facts);
    resolveConditionalFixes(std::move(program), findings);
  };
  return part;
}

} // namespace streamlint::ordering
