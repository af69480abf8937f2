"""Published CI snippets, run here as their hosts would run them.

gitlab: resolves a .gitlab-ci.yml that includes the template as GitLab does
(the included file's keys deep-merged under the including file's, hashes
merged key by key, arrays and scalars replaced; then `extends:` merged the
same way, parent first, the job's own keys last) and prints one job's
resolved form as JSON.

action: runs integrations/github/action.yml's steps whose `if:` holds, with
`${{ }}` expressions evaluated from the inputs, `github` context and step
outputs a workflow gives; `uses:` steps are recorded, not run.
"""
import json
import os
import re
import subprocess
import sys

import yaml


def deep_merge(base, override):
    if isinstance(base, dict) and isinstance(override, dict):
        merged = dict(base)
        for key, value in override.items():
            merged[key] = deep_merge(base[key], value) if key in base else value
        return merged
    return override


def resolve_job(config, name, seen=()):
    job = config[name]
    if name in seen:
        raise ValueError(f"extends cycle at {name}")
    parents = job.get("extends", [])
    if isinstance(parents, str):
        parents = [parents]
    resolved = {}
    for parent in parents:
        resolved = deep_merge(resolved, resolve_job(config, parent, seen + (name,)))
    own = {k: v for k, v in job.items() if k != "extends"}
    return deep_merge(resolved, own)


def gitlab(template_path, local_path, job_name):
    with open(template_path) as f:
        template = yaml.safe_load(f)
    with open(local_path) as f:
        local = yaml.safe_load(f) or {}
    local.pop("include", None)  # the template stands for the include
    config = deep_merge(template, local)
    job = resolve_job(config, job_name)
    variables = dict(config.get("variables", {}))
    variables.update(job.get("variables", {}))
    job["variables"] = variables
    print(json.dumps(job))


# --- GitHub composite action -------------------------------------------------

TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\))|"
                   r"(?P<call>[a-z]+\(\))|(?P<name>[A-Za-z_][\w.-]*))")


def evaluate(expression, context):
    """GitHub expressions as the action uses them: contexts, string literals,
    ==, !=, !, &&, ||, always()."""
    python = []
    position = 0
    expression = expression.strip()
    while position < len(expression):
        match = TOKEN.match(expression, position)
        if not match or match.end() == position:
            raise ValueError(f"cannot evaluate {expression!r} at {position}")
        position = match.end()
        if match.group("str"):
            python.append(repr(match.group("str")[1:-1].replace("''", "'")))
        elif match.group("op"):
            python.append({"&&": " and ", "||": " or ", "!": " not "}.get(
                match.group("op"), match.group("op")))
        elif match.group("call"):
            if match.group("call") not in ("always()", "success()"):
                raise ValueError(f"unsupported function {match.group('call')}")
            python.append("True")
        else:
            value = context
            for part in match.group("name").split("."):
                value = value.get(part, "") if isinstance(value, dict) else ""
            python.append(repr(value if value is not None else ""))
    return eval("".join(python), {"__builtins__": {}})  # noqa: S307 (our own tokens)


def substitute(text, context):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(evaluate(m.group(1), context)), text)


def action(action_path, inputs_json, github_json, workdir):
    with open(action_path) as f:
        definition = yaml.safe_load(f)
    inputs = {name: str(spec.get("default", "")) for name, spec in definition["inputs"].items()}
    given = json.loads(inputs_json)
    unknown = set(given) - set(inputs)
    if unknown:
        raise SystemExit(f"unknown inputs {sorted(unknown)}")
    inputs.update(given)
    context = {"inputs": inputs, "github": json.loads(github_json), "steps": {}}
    status = 0
    for index, step in enumerate(definition["runs"]["steps"]):
        condition = step.get("if", "success()")
        failed_so_far = status != 0
        if failed_so_far and "always()" not in str(condition):
            continue
        if not evaluate(str(condition), context):
            continue
        name = step.get("name", step.get("uses"))
        if "uses" in step:
            print(f"[action] would run {step['uses']} with "
                  f"{json.dumps({k: substitute(str(v), context) for k, v in step.get('with', {}).items()})}",
                  flush=True)
            continue
        env = dict(os.environ)
        env.update({k: substitute(str(v), context) for k, v in step.get("env", {}).items()})
        output_file = os.path.join(os.environ["RUNNER_TEMP"], f"output-{index}")
        open(output_file, "w").close()
        env["GITHUB_OUTPUT"] = output_file
        print(f"[action] step: {name}", flush=True)
        result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c",
                                 substitute(step["run"], context)], env=env, cwd=workdir)
        outputs = {}
        for line in open(output_file):
            if "=" in line:
                key, value = line.rstrip("\n").split("=", 1)
                outputs[key] = value
        if "id" in step:
            context["steps"][step["id"]] = {"outputs": outputs}
        print(f"[action] step {name}: exit {result.returncode} outputs {json.dumps(outputs)}",
              flush=True)
        if result.returncode != 0:
            status = result.returncode
    print(f"[action] result: {status}", flush=True)
    return status


if __name__ == "__main__":
    if sys.argv[1] == "gitlab":
        gitlab(*sys.argv[2:5])
    elif sys.argv[1] == "action":
        sys.exit(action(*sys.argv[2:6]))
    else:
        raise SystemExit("usage: ci_local.py gitlab TEMPLATE LOCAL JOB | "
                         "action ACTION INPUTS_JSON GITHUB_JSON WORKDIR")
