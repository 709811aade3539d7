#!/usr/bin/env bash
# Run the pinned n8n (installed on first use by install.sh) headless and offline.
#
#   tools/n8n/n8n.sh start                                  # serve on 127.0.0.1:5678
#   tools/n8n/n8n.sh import:workflow --input=FILE           # any n8n CLI command
#   tools/n8n/n8n.sh publish:workflow --id=ID
#
# Every variable below is a default: set it in the environment to change it. The offline set
# (no telemetry, no version checks, no outbound call at start) is the one in ../../../shared/N8N.md.
# n8n's own defaults are kept where they matter to the workflows: the default expression engine
# and env access blocked in nodes — the workflows read nothing from the environment (node URLs
# live in each workflow's "Settings" node, tokens and keys in credentials).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
home=$("$here/install.sh" | tail -n1)
export PATH="$(cat "$home/node-bin-path"):$PATH"

: "${N8N_USER_FOLDER:=${TWIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/twin-core}/n8n-user}"
: "${N8N_LISTEN_ADDRESS:=127.0.0.1}"
: "${N8N_HOST:=127.0.0.1}"
: "${N8N_PORT:=5678}"
: "${N8N_PROTOCOL:=http}"
: "${WEBHOOK_URL:=http://${N8N_HOST}:${N8N_PORT}/}"
: "${DB_TYPE:=sqlite}"
: "${N8N_DIAGNOSTICS_ENABLED:=false}"
: "${N8N_VERSION_NOTIFICATIONS_ENABLED:=false}"
: "${N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED:=false}"
: "${N8N_PERSONALIZATION_ENABLED:=false}"
: "${N8N_TEMPLATES_ENABLED:=false}"
: "${N8N_HIRING_BANNER_ENABLED:=false}"
: "${N8N_DYNAMIC_BANNERS_ENABLED:=false}"
: "${N8N_LICENSE_AUTO_RENEW_ENABLED:=false}"
: "${N8N_AI_ENABLED:=false}"
: "${N8N_COMMUNITY_PACKAGES_ENABLED:=false}"
: "${N8N_DISABLED_MODULES:=mcp-registry}"
: "${N8N_WORKFLOW_PUBLICATION_RECONCILE_INTERVAL_SECONDS:=1}"
: "${N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS:=false}"
export N8N_USER_FOLDER N8N_LISTEN_ADDRESS N8N_HOST N8N_PORT N8N_PROTOCOL WEBHOOK_URL DB_TYPE \
  N8N_DIAGNOSTICS_ENABLED N8N_VERSION_NOTIFICATIONS_ENABLED \
  N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED N8N_PERSONALIZATION_ENABLED N8N_TEMPLATES_ENABLED \
  N8N_HIRING_BANNER_ENABLED N8N_DYNAMIC_BANNERS_ENABLED N8N_LICENSE_AUTO_RENEW_ENABLED \
  N8N_AI_ENABLED N8N_COMMUNITY_PACKAGES_ENABLED N8N_DISABLED_MODULES \
  N8N_WORKFLOW_PUBLICATION_RECONCILE_INTERVAL_SECONDS N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS
mkdir -p "$N8N_USER_FOLDER"
exec "$home/app/node_modules/.bin/n8n" "$@"
