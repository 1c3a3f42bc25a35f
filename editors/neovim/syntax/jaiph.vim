" Vim syntax file for Jaiph (.jh, .jph): the workflow language of jaiph-go.
" Bodies are shell, so bash's syntax is the base; Jaiph's declarations,
" steps and channel operators are highlighted on top of it.
" Install: copy to ~/.config/nvim/syntax/ (or ~/.vim/syntax/), or put the
" editors/neovim folder on 'runtimepath'.

if exists('b:current_syntax')
  finish
endif

let b:is_bash = 1
runtime! syntax/sh.vim
unlet! b:current_syntax

" Jaiph's words are highlighted wherever bash's regions would take them
" (a body between braces is a bash command group), except in comments and
" quoted strings.
syn keyword jaiphDeclaration workflow rule function channel import config export local test as containedin=ALLBUT,shComment,shDoubleQuote,shSingleQuote,shQuote,shHereDoc,jaiphComment
syn keyword jaiphStep run ensure prompt log logerr recover returns return mock expectEqual expectContain expectNotContain send key timeout containedin=ALLBUT,shComment,shDoubleQuote,shSingleQuote,shQuote,shHereDoc,jaiphComment
syn match jaiphOperator "->\|<-" containedin=ALLBUT,shComment,shDoubleQuote,shSingleQuote,shQuote,shHereDoc,jaiphComment

hi def link jaiphDeclaration Keyword
hi def link jaiphStep Statement
hi def link jaiphOperator Operator

let b:current_syntax = 'jaiph'
