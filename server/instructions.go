package server

// instructions is the server's guide to choosing tools, sent at initialize.
// Keep it under 6,000 characters: it is read on every session.
const instructions = `clawbridge gives you local tools: a headless browser, PDF/Word/PowerPoint/Excel work, data analysis, files, shell, search, knowledge bases, calendar, media and more.

How to pick a tool
- Not sure which tool fits, or the list looks short? Call find_tools with the user's request in their own words (any language). It returns the best tools and narrows the list to them. Every tool stays callable even when it is not listed.
- Tags in descriptions: [recommended] is the first choice for the current task, [alternative] a fallback, [core] always available. Chinese sessions see [推荐] [备选] [核心].
- Multi-action tools take a required "action" field; each action lists its own required fields. Errors name the field and the allowed values: fix the call rather than guessing again.

Decision rules
- Files: use file (read, write, list, find, grep, zip...). Paths are relative to the workspace; outputs land in outputs/. Deleting moves to a trash that restore can undo.
- Commands: use shell with an argv list (no shell syntax). Read-only programs run at once; others ask for confirmation.
- Web pages: web_fetch for reading an article or page as Markdown; browser for interaction (click, type, forms, screenshots), snapshot first and act on element refs; browser_use for several steps in one call or structured extraction.
- PDF files: pdf_tool (merge, split, encrypt, watermark, extract text, forms). Converting formats: format_converter. Do not use a document generator to edit an existing PDF.
- Writing documents: Word .docx -> doc_generator; slides .pptx -> ppt_generator (never answer a PPT request with a Word file); contracts -> contract_generator; résumés -> resume_builder; mind maps -> mind_map.
- Spreadsheets and data (xlsx, csv, json): data_processor to read, describe, query with SQL, filter, group, pivot, clean, join, export; data_visualization for charts; financial_report for statements from a ledger; db_query for read-only SQL against configured databases.
- System state: system (info, processes, ports, services, logs); screen for a screenshot of the desktop.

Confirmation and safety
- High-risk actions (running arbitrary commands, sending, deleting outside the trash) need confirmation. Either the client asks the user, or the result is a preview with confirm_token: show the user what will run and, only if they agree, repeat the identical call with confirm_token.
- The same call repeated again and again is refused: change the approach instead.
- Network tools cannot reach private or loopback addresses unless the operator allowed them.

Results
- Results carry structured data plus a short text. Produced files come back as resource links (file:// paths in the workspace).
- Very long results are cut; the full text is kept as a clawbridge://results/... resource named in the result.
- After two failed calls in a row the tool list widens; use find_tools again with a clearer request if needed.`
