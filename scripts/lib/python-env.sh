# The one Python environment the test layers share (sourced, not run).
# python_env installs scripts/lib/python-requirements.txt into a venv under
# ~/.cache/genui-worker once, and again only when that file changes; it
# prints the venv's path.
python_env() {
  local venv="$HOME/.cache/genui-worker/venv"
  local requirements="scripts/lib/python-requirements.txt"
  local stamp="$venv/.requirements.sha256"
  local want
  want=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "python: installing $requirements into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" >&2
    echo "$want" > "$stamp"
  fi
  echo "$venv"
}
