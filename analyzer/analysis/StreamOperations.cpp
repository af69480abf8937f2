// Collecting a function's CUDA operations for the ordering analysis. The API
// facts (which calls wait, which copy runs on the default stream and in which
// direction) come from the API table (api/CudaApiTable.h); stream arguments
// from StreamResolution.
#include "analyzer/analysis/StreamOperations.h"
#include "analyzer/analysis/AnalysisScope.h"
#include "analyzer/analysis/OperationLocation.h"
#include "analyzer/analysis/StandardLibraryCalls.h"
#include "analyzer/analysis/StreamSources.h"
#include "analyzer/analysis/StreamResolution.h"
#include "api/CudaApiTable.h"
#include "api/LibraryApiTable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace streamlint {
namespace {

bool isCudaName(llvm::StringRef name) {
  return name.starts_with("cuda") ||
         (name.size() > 2 && name.starts_with("cu") && std::isupper(name[2]));
}

/// The copy moves data to the host: its fixed direction, or
/// `cudaMemcpyDeviceToHost` passed (or defaulted) as its kind argument.
bool copiesToHost(const clang::CallExpr &call, const api::ApiInfo &info) {
  if (info.fixedDirection == api::DeviceToHost && info.kindIndex < 0)
    return true;
  if (info.kindIndex < 0 || unsigned(info.kindIndex) >= call.getNumArgs())
    return false;
  const clang::Expr *kind = call.getArg(info.kindIndex);
  if (llvm::isa<clang::CXXDefaultArgExpr>(kind))
    return info.fixedDirection == api::DeviceToHost; // cudaMemcpyFromSymbol
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(kind->IgnoreParenImpCasts()))
    return ref->getDecl()->getName() == "cudaMemcpyDeviceToHost";
  return false;
}

/// The variable `expr` names, through `&v` and parentheses.
const clang::Decl *variableOf(const clang::Expr *expr) {
  expr = withoutAddressOf(expr);
  if (!expr)
    return nullptr;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(expr))
    if (const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
      return var->getCanonicalDecl();
  return nullptr;
}

/// Source-order walk of one body; lambdas are other functions.
class OperationCollector : public clang::RecursiveASTVisitor<OperationCollector> {
public:
  OperationCollector(const clang::FunctionDecl &function, clang::ASTContext &ast,
                     bool perThread, unsigned depth)
      : function_(function), ast_(ast), perThread_(perThread), depth_(depth) {}

  bool TraverseLambdaExpr(clang::LambdaExpr *) { return true; }

  // The walk keeps the path from the body down to the node it visits: the
  // statements, and a null entry where it went through a declaration, a
  // type, a name qualifier, a template argument or an attribute, whose
  // expressions clang's parent map gives a parent that is not a statement.
  // Overriding TraverseStmt with one parameter turns off clang's queue, so
  // the children are traversed inside their parent's call.
  bool TraverseStmt(clang::Stmt *stmt) {
    if (!stmt)
      return true;
    path_.push_back(stmt);
    bool more = RecursiveASTVisitor::TraverseStmt(stmt);
    path_.pop_back();
    return more;
  }
  bool TraverseDecl(clang::Decl *decl) {
    return throughNonStatement([&] { return RecursiveASTVisitor::TraverseDecl(decl); });
  }
  bool TraverseTypeLoc(clang::TypeLoc type, bool qualifier = true) {
    return throughNonStatement(
        [&] { return RecursiveASTVisitor::TraverseTypeLoc(type, qualifier); });
  }
  bool TraverseNestedNameSpecifierLoc(clang::NestedNameSpecifierLoc name) {
    return throughNonStatement(
        [&] { return RecursiveASTVisitor::TraverseNestedNameSpecifierLoc(name); });
  }
  bool TraverseTemplateArgumentLoc(const clang::TemplateArgumentLoc &argument) {
    return throughNonStatement(
        [&] { return RecursiveASTVisitor::TraverseTemplateArgumentLoc(argument); });
  }
  bool TraverseAttr(clang::Attr *attribute) {
    return throughNonStatement([&] { return RecursiveASTVisitor::TraverseAttr(attribute); });
  }
  bool VisitReturnStmt(clang::ReturnStmt *stmt) {
    StreamOperation op;
    op.node = stmt;
    op.what = "return";
    op.effect = OperationEffect::Return;
    add(std::move(op));
    return true;
  }
  bool VisitCallExpr(clang::CallExpr *call) {
    if (skipped_.count(call))
      return true;
    if (auto *launch = llvm::dyn_cast<clang::CUDAKernelCallExpr>(call))
      skipped_.insert(launch->getConfig());
    StreamOperation op = classify(*call);
    if (op.effect != OperationEffect::Neutral)
      add(std::move(op));
    return true;
  }

  std::vector<StreamOperation> take() { return std::move(operations_); }

private:
  template <typename Traversal> bool throughNonStatement(Traversal traverse) {
    path_.push_back(nullptr);
    bool more = traverse();
    path_.pop_back();
    return more;
  }

  void add(StreamOperation op) {
    locateOperation(op, path_, function_, ast_);
    operations_.push_back(std::move(op));
  }

  StreamOperation classify(const clang::CallExpr &call) {
    StreamOperation op;
    op.node = &call;
    if (llvm::isa<clang::CUDAKernelCallExpr>(call)) {
      op.what = "kernel launch";
      return enqueue(op, call);
    }
    const clang::FunctionDecl *callee = call.getDirectCallee();
    if (!callee) {
      op.what = "indirect call";
      op.effect = OperationEffect::Opaque;
      return op;
    }
    std::string name =
        callee->getIdentifier() ? std::string(api::baseName(apiNameAsWritten(*callee))) : "";
    op.what = name.empty() ? callee->getNameAsString() : name;
    const clang::SourceManager &sm = ast_.getSourceManager();
    bool system = isLibraryFunction(*callee, sm);
    if (!name.empty() && isCudaName(name) && (system || !callee->hasBody()))
      return classifyCudaApi(op, call, name);
    if (std::optional<StreamOperation> library = classifyLibraryWork(op, call, *callee))
      return *library;
    // A library's name on a function the program defines (llm.c's
    // `cublasCheck`, an error check) is the program's: its body decides.
    if (!name.empty() && api::isLibraryFunctionName(name) && (system || !callee->hasBody())) {
      op.effect = api::isLibrarySetUpCall(name) || api::leavesNoWorkPending(name)
                      ? OperationEffect::Neutral
                      : OperationEffect::Opaque;
      return op;
    }
    if (system) {
      // The C and C++ libraries do no CUDA work, unless they call code of
      // the program they are given (std::for_each(..., lambda), qsort's
      // comparator, a std::thread's function).
      bool unresolved = false;
      for (const clang::FunctionDecl *callable : programCallables(call, sm, unresolved))
        unresolved |= !doesNothingForOrdering(*callable);
      if (unresolved) {
        op.what = "call of '" + callee->getNameAsString() + "' with code of the program";
        op.effect = OperationEffect::Opaque;
      }
      return op;
    }
    op.what = "call of '" + callee->getNameAsString() + "'";
    if (!doesNothingForOrdering(*callee))
      op.effect = OperationEffect::Opaque;
    return op;
  }

  /// Whether `function`'s body (defined here, within the depth limit) has
  /// no operation but its return.
  bool doesNothingForOrdering(const clang::FunctionDecl &function) {
    const clang::FunctionDecl *definition = function.getDefinition();
    if (!definition || !definition->hasBody() || depth_ >= 4)
      return false;
    OperationCollector collector(*definition, ast_, perThread_, depth_ + 1);
    collector.TraverseStmt(definition->getBody());
    for (const StreamOperation &innerOp : collector.take())
      if (innerOp.effect != OperationEffect::Return)
        return false;
    return true;
  }

  /// Library calls that take their stream as an argument (cuBLASLt, NCCL:
  /// api/LibraryApiTable's rows; CUB's device-wide algorithms) are work on
  /// that stream; a Thrust algorithm may launch, copy and wait. Shared
  /// libraries are built without per-thread default stream: a 0 stream
  /// reaching them is the legacy stream in every build; CUB is compiled
  /// into the caller and follows its build.
  std::optional<StreamOperation> classifyLibraryWork(StreamOperation &op,
                                                     const clang::CallExpr &call,
                                                     const clang::FunctionDecl &callee) {
    std::string qualified = callee.getQualifiedNameAsString();
    llvm::StringRef name = callee.getIdentifier() ? callee.getName() : "";
    std::string_view spelled(name.data(), name.size());
    const api::LibraryStreamCall *row = spelled.empty() ? nullptr
                                                        : api::findLibraryStreamCall(spelled);
    bool cub = llvm::StringRef(qualified).starts_with("cub::Device");
    if (row || cub) {
      op.what = cub ? qualified : std::string(api::baseName(spelled));
      const clang::Expr *storage = call.getNumArgs() ? call.getArg(0) : nullptr;
      if (cub && storage &&
          storage->IgnoreParenImpCasts()->isNullPointerConstant(
              ast_, clang::Expr::NPC_ValueDependentIsNotNull))
        return op; // the temporary-storage size query launches nothing
      op.effect = OperationEffect::Enqueue;
      op.stream = orderingStreamOf(call, function_, ast_, cub && perThread_);
      op.blocking = blockingFor(op.stream);
      return op;
    }
    if (!llvm::isa<clang::CXXMethodDecl>(callee) && !spelled.empty() &&
        qualified == "thrust::" + name.str() && api::isThrustAlgorithm(spelled) &&
        onDevice(call)) {
      op.what = qualified;
      op.effect = OperationEffect::Opaque;
      return op;
    }
    return std::nullopt;
  }

  /// A Thrust call with a device policy or device iterators (host
  /// iterators run on the host).
  bool onDevice(const clang::CallExpr &call) const {
    for (const clang::Expr *argument : call.arguments()) {
      std::string type =
          argument->getType().getCanonicalType().getAsString(ast_.getPrintingPolicy());
      if (type.find("device_ptr<") != std::string::npos ||
          type.find("device_vector<") != std::string::npos ||
          type.find("cuda_cub::") != std::string::npos)
        return true;
    }
    return false;
  }

  StreamOperation classifyCudaApi(StreamOperation &op, const clang::CallExpr &call,
                                  llvm::StringRef name) {
    const api::ApiInfo *info = api::findApi(name);
    api::SyncKind sync = info ? info->sync : api::SyncKind::None;
    if (sync == api::SyncKind::Device) {
      op.effect = OperationEffect::HostWaitsAll;
      return op;
    }
    if (sync == api::SyncKind::Stream) {
      op.effect = OperationEffect::HostWaitsStream;
      op.stream = orderingStreamOf(call, function_, ast_, perThread_);
      op.blocking = blockingFor(op.stream);
      return op;
    }
    if (sync == api::SyncKind::Event) {
      auto recorded = call.getNumArgs() ? eventStreams_.find(variableOf(call.getArg(0)))
                                        : eventStreams_.end();
      if (recorded != eventStreams_.end()) {
        op.effect = OperationEffect::HostWaitsStream;
        op.stream = recorded->second.first;
        op.recordedBy = recorded->second.second;
        op.blocking = blockingFor(op.stream);
      }
      return op;
    }
    if (sync == api::SyncKind::DefaultStream) {
      op.effect = OperationEffect::Enqueue;
      bool ptds = call.getDirectCallee()->getName().ends_with("_ptds");
      op.stream.kind = perThread_ || ptds ? OrderingStream::PerThread : OrderingStream::Legacy;
      op.blocking = StreamBlocking::Blocking;
      op.hostWaits = copiesToHost(call, *info);
      return op;
    }
    if ((info && api::ordersNoWork(*info)) || !streamArgumentOf(call))
      return op; // create, destroy, query, attributes, capture; no stream
    enqueue(op, call);
    if (info && info->event == api::EventUse::Records &&
        unsigned(info->eventIndex) < call.getNumArgs())
      if (const clang::Decl *event = variableOf(call.getArg(info->eventIndex)))
        eventStreams_[event] = {op.stream, &call};
    return op;
  }

  StreamOperation &enqueue(StreamOperation &op, const clang::CallExpr &call) {
    op.effect = OperationEffect::Enqueue;
    op.stream = orderingStreamOf(call, function_, ast_, perThread_);
    op.blocking = blockingFor(op.stream);
    return op;
  }

  StreamBlocking blockingFor(const OrderingStream &stream) {
    switch (stream.kind) {
    case OrderingStream::Legacy:
    case OrderingStream::PerThread:
      return StreamBlocking::Blocking;
    case OrderingStream::Variable:
      return blockingOf(stream.variable, function_, ast_);
    case OrderingStream::Unknown:
      return StreamBlocking::Unknown;
    }
    return StreamBlocking::Unknown;
  }

  const clang::FunctionDecl &function_;
  clang::ASTContext &ast_;
  bool perThread_;
  unsigned depth_;
  std::vector<StreamOperation> operations_;
  std::vector<const clang::Stmt *> path_; // see TraverseStmt
  std::set<const clang::Stmt *> skipped_;
  std::map<const clang::Decl *, std::pair<OrderingStream, const clang::Stmt *>> eventStreams_;
};

/// Finds the calls creating `stream` (the table's StreamLifecycle::Creates
/// rows: cudaStreamCreate*(&stream, ...)) and assignments to `stream`.
class CreationFinder : public clang::RecursiveASTVisitor<CreationFinder> {
public:
  CreationFinder(const clang::Decl *stream, clang::ASTContext &ast)
      : stream_(stream), ast_(ast) {}
  StreamBlocking result = StreamBlocking::Unknown;
  bool seen = false, conflicting = false;

  bool VisitCallExpr(clang::CallExpr *call) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || !callee->getIdentifier() || !call->getNumArgs() ||
        variableOf(call->getArg(0)) != stream_)
      return true;
    const api::ApiInfo *info = api::findApi(callee->getName());
    if (!info || info->lifecycle != api::StreamLifecycle::Creates)
      return true;
    if (info->flagsIndex < 0)
      note(StreamBlocking::Blocking); // cudaStreamCreate: default flags
    else
      note(unsigned(info->flagsIndex) < call->getNumArgs()
               ? flagsBlocking(call->getArg(info->flagsIndex))
               : StreamBlocking::Unknown);
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *op) {
    if (op->isAssignmentOp() && variableOf(op->getLHS()) == stream_)
      note(StreamBlocking::Unknown);
    return true;
  }

private:
  void note(StreamBlocking blocking) {
    if (seen && blocking != result)
      conflicting = true;
    seen = true;
    result = blocking;
  }
  StreamBlocking flagsBlocking(const clang::Expr *flags) {
    clang::Expr::EvalResult value;
    if (!flags->EvaluateAsInt(value, ast_))
      return StreamBlocking::Unknown;
    return (value.Val.getInt().getZExtValue() & 1) ? StreamBlocking::NonBlocking
                                                   : StreamBlocking::Blocking;
  }
  const clang::Decl *stream_;
  clang::ASTContext &ast_;
};

} // namespace

StreamBlocking blockingOf(const clang::Decl *stream, const clang::FunctionDecl &function,
                          clang::ASTContext &ast) {
  if (!stream || !function.hasBody())
    return StreamBlocking::Unknown;
  const auto *var = llvm::dyn_cast<clang::VarDecl>(stream);
  if (!var || !var->isLocalVarDecl())
    return StreamBlocking::Unknown; // parameters, globals: created elsewhere
  CreationFinder finder(stream->getCanonicalDecl(), ast);
  finder.TraverseStmt(function.getBody());
  return finder.conflicting ? StreamBlocking::Unknown : finder.result;
}

OrderingStream orderingStreamOf(const clang::CallExpr &call, const clang::FunctionDecl &function,
                                clang::ASTContext &ast, bool perThreadDefaultStream) {
  OrderingStream stream;
  std::optional<StreamArgumentSite> site = streamArgumentOf(call);
  if (!site)
    return stream;
  StreamClassification classified = classifyStreamArgument(site->argument, ast, &function);
  bool ptsz = false;
  if (const clang::FunctionDecl *callee = call.getDirectCallee())
    ptsz = callee->getIdentifier() && callee->getName().ends_with("_ptsz");
  switch (classified.kind) {
  case StreamKind::Omitted:
  case StreamKind::Null:
    stream.kind = perThreadDefaultStream || ptsz ? OrderingStream::PerThread
                                                 : OrderingStream::Legacy;
    break;
  case StreamKind::Legacy:
    stream.kind = OrderingStream::Legacy;
    break;
  case StreamKind::PerThread:
    stream.kind = OrderingStream::PerThread;
    break;
  case StreamKind::Named:
    if (classified.variable) {
      stream.kind = OrderingStream::Variable;
      stream.variable = classified.variable->getCanonicalDecl();
    }
    break;
  case StreamKind::Unknown:
    break;
  }
  return stream;
}

FunctionOperations operationsOf(const clang::FunctionDecl &function, clang::ASTContext &ast,
                                bool perThreadDefaultStream) {
  FunctionOperations result;
  result.function = &function;
  result.isMain = function.isMain();
  if (!function.hasBody())
    return result;
  OperationCollector collector(function, ast, perThreadDefaultStream, 0);
  collector.TraverseStmt(function.getBody());
  result.operations = collector.take();
  StreamOperation end; // falling off the end returns too
  end.node = function.getBody();
  end.what = "return";
  end.effect = OperationEffect::Return;
  result.operations.push_back(std::move(end));
  return result;
}

bool neverBefore(const StreamOperation &op, const StreamOperation &from) {
  return op.endsProgram && !llvm::is_contained(from.conditions, op.endsProgram);
}

std::string describeLine(const clang::Stmt &node, const clang::FunctionDecl &function,
                         const clang::SourceManager &sources) {
  clang::SourceLocation at = sources.getExpansionLoc(node.getBeginLoc());
  std::string line = std::to_string(sources.getExpansionLineNumber(at));
  if (sources.getFileID(at) ==
      sources.getFileID(sources.getExpansionLoc(function.getLocation())))
    return "line " + line;
  return llvm::sys::path::filename(sources.getFilename(at)).str() + ":" + line;
}

} // namespace streamlint
