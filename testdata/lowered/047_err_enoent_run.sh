error: lib/tools.jh: E_IMPORT_NOT_FOUND import "common" resolves to missing file "<case>/shared/common.jh"
