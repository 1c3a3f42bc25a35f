error: lib/helpers.jh: E_VALIDATE imported workflow or function "util.missing_workflow" does not exist
