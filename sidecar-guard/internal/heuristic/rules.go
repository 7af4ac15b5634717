package heuristic

import "regexp"

// Rule names, as they appear in Result.Rules.
const (
	ruleOverride       = "instruction_override"
	ruleRole           = "role_redefinition"
	rulePromptLeak     = "prompt_exfiltration"
	ruleSecretLeak     = "secret_exfiltration"
	ruleMailLeak       = "mail_exfiltration"
	ruleAddressed      = "addressed_to_ai"
	ruleReplyHijack    = "reply_hijack"
	ruleFormatMarker   = "format_injection"
	ruleReActForgery   = "react_forgery"
	ruleImageExfil     = "markdown_image_exfiltration"
	ruleHiddenInWord   = "hidden_zero_width_in_word"
	ruleHiddenTags     = "hidden_tag_characters"
	ruleHiddenBidi     = "hidden_bidi_override"
	ruleHiddenBase64   = "hidden_base64_instructions"
	ruleHiddenStripped = "hidden_format_characters"

	ruleHiddenQuotedPrintable = "hidden_quoted_printable_instructions"
)

// phraseRule is one family of phrasings over a folded sentence. A
// sentence matches when any pattern matches and no veto applies to that
// match.
type phraseRule struct {
	name string
	// patterns are regular expressions over folded text; each must start
	// with a word (see gate.go for why).
	patterns []string
	// needs, when set, lists literals one of which every match contains;
	// a try is skipped when the text it would read holds none of them.
	needs []string
	// vetoMatch, when set, drops a match it matches.
	vetoMatch *regexp.Regexp
	// negated drops a match preceded closely by a negation ("never share
	// your password", "n'oubliez pas") or, when after is set, followed by
	// one ("teilen Sie Ihr Passwort niemals").
	negated bool
	after   *regexp.Regexp
}

// negBefore matches a negation at the end of the text before a match,
// at most three words away.
var negBefore = regexp.MustCompile(`(?:n'|\b(?:not|never|dont|don't|do not|no|nie|niemals|nicht|jamais|ne|nunca|jamas|ni)\s+(?:\S+\s+){0,3})$`)

// negAfter matches a negation in the few words after a match.
var negAfter = regexp.MustCompile(`^\s*(?:\S+\s+){0,2}?(?:niemals|nie|nicht|jamais|never|nunca)\b`)

// Shared fragments. Text is lower case, accent-free, single-spaced.
const (
	// gap3 etc. allow a few words between two parts of a phrase.
	gap2 = `\s+(?:\S+\s+){0,2}?`
	gap3 = `\s+(?:\S+\s+){0,3}?`
	gap4 = `\s+(?:\S+\s+){0,4}?`
	gap6 = `\s+(?:\S+\s+){0,6}?`
	gap8 = `\s+(?:\S+\s+){0,8}?`

	// English.
	enOverrideVerb = `\b(?:ignor(?:e|es|ed|ing)|disregard(?:s|ed|ing)?|overlook(?:s|ed|ing)?|look past|move past|brush aside|cast aside|unlearn|forg[eo]t(?:s|ten|ting)?|overrid(?:e|es|ing)|overrule|bypass(?:es|ing)?|skip|drop|discard|abandon|neglect|reset|set aside|put aside|throw away|supersed(?:e|es|ing)|revok(?:e|es|ing)|void|pay no (?:attention|heed|mind) to|(?:do not|don't|dont|stop|no longer|cease to|never|quit) (?:follow(?:ing)?|obey(?:ing)?|listen(?:ing)? to|adher(?:e|ing) to|comply(?:ing)? with|heed(?:ing)?|apply(?:ing)?))`
	enQual         = `(?:previous(?:ly)?|prior|above|earlier|preceding|foregoing|former|original|initial|old|past|existing|system|default|your|all|any|every|these|those)`
	enInstr        = `(?:instructions?|instruction set|directives?|prompts?|system (?:prompt|message)s?|guidelines|programming|guidance|orders|commands|safeguards|safety (?:rules|guidelines|filters|measures)|polic(?:y|ies)|constraints|restrictions|rules|training|context|conversation|tasks?|goals?|objectives?|ones)\b`
	enAfterInstr   = `(?:above|before|earlier|previously|so far|until now|up to now|given to you|you (?:were|have been|'ve been) given|you (?:received|got|have)|(?:from|of|by) (?:your|the) (?:developers?|creators?|operators?|system|admin\w*|owners?|programmers?))\b`
	// The nouns a noun-first override speaks of ("your prior instructions
	// are revoked"). Narrower than enInstr: "all previous orders have been
	// cancelled" and "the old policies are outdated" are ordinary mail.
	enCore = `(?:instructions?|instruction set|directives?|prompts?|system (?:prompt|message)s?|programming)\b`
	deCore = `(?:(?:system|sicherheits)?anweisung\w*|instruktion\w*|(?:system)?prompt\w*|programmierung)`
	frCore = `(?:instructions?|directives?|prompts?|messages? systeme|programmation)\b`
	esCore = `(?:instrucciones|instruccion|directivas|directrices|prompts?|mensajes? (?:de|del) sistema|programacion)\b`

	// A state that cancels instructions, for "your previous instructions
	// are revoked".
	enCancelled = `(?:are|is|were|have been|has been)\s+(?:now\s+|hereby\s+|officially\s+|all\s+)?(?:cancel+ed|revoked|void|null|obsolete|outdated|invalid|overridden|superseded|replaced|lifted|suspended|deprecated|fake|wrong|a test|no longer (?:valid|in effect|applicable|relevant|active))`

	// German.
	deOverrideVerb = `\b(?:ignorier\w*|vergiss|vergesst|vergessen sie|vergesse|missacht\w*|verwirf|verwerft|verwerfen sie|ubergeh\w*|setze? dich uber|setzen sie sich uber|(?:befolg|beacht|gehorch)\w*\s+(?:du\s+|sie\s+)?nicht(?:\s+mehr)?)`
	deQual         = `(?:vorherig\w*|vorig\w*|bisherig\w*|obig\w*|fruher\w*|vorangegangen\w*|vorausgegangen\w*|ursprunglich\w*|alt(?:e|en|er)|alle\w*|samtlich\w*|dein\w*|ihr(?:e|en|er)?|system\w*|gegeben\w*|oben)`
	deInstr        = `(?:(?:system|sicherheits)?anweisung\w*|instruktion\w*|befehl\w*|regel\w*|(?:sicherheits|inhalts|nutzungs)?richtlinie\w*|vorgabe\w*|anordnung\w*|(?:system)?prompt\w*|programmierung|leitlinie\w*|auftrag\w*|aufgabe\w*)`
	deAfterInstr   = `(?:von vorhin|von oben|oben|zuvor|davor|bisher|vorher|(?:deines|deiner|ihres|ihrer|des|der) (?:entwickler\w*|systems?|betreiber\w*|erschaffer\w*|programmierer\w*))\b`
	deCancelled    = `(?:sind|ist|gelten|gilt|wurden|wurde)\s+(?:\S+\s+){0,3}?(?:aufgehoben|ungultig|veraltet|nichtig|widerrufen|uberholt|storniert|annulliert|nicht mehr)`

	// French.
	frOverrideVerb = `(?:\bignor\w*|\boubli\w*|\bne (?:tiens|tenez) (?:pas|plus) compte|\b(?:fais|faites) abstraction|\b(?:fais|faites) fi|\bpasse[zr]? outre|\boutrepass\w*|\becart\w*|\bcontourn\w*|\bne (?:suis|suivez|respecte|respectez|ecoute|ecoutez) (?:plus|pas)|\bn'(?:obei\w*|ecout\w*|appliqu\w*) (?:plus|pas)|\befface\w*)`
	frQual         = `(?:precedent\w*|anterieur\w*|ci-dessus|ci dessus|plus haut|plus tot|d'origine|originel\w*|origina\w*|initia\w*|toutes|tous|tes|vos|ton|votre|ta|systeme|ancien\w*|donnee\w*|recue?s?|fournie?s?|d'avant|de depart)`
	frInstr        = `(?:instructions?|consignes?|directives?|regles?|ordres?|commandes?|prompts?|messages? systeme|indications?|programmation|politiques?|recommandations?|taches?|mission)\b`
	frCancelled    = `(?:sont|est|seront)\s+(?:desormais\s+|maintenant\s+|toutes\s+|dorenavant\s+)?(?:annulee?s?|obsoletes?|caduques?|perimee?s?|invalides?|revoquee?s?|remplacee?s?|nulles?|plus (?:valables?|valides?|en vigueur|d'actualite))`

	// Spanish.
	esOverrideVerb = `\b(?:ignor\w*|olvid\w*|no (?:hagas|haga|hagan) caso|(?:haz|haga|hagan) caso omiso|descart\w*|omit\w*|saltate|saltese|pasa por alto|pase por alto|pasen por alto|no (?:sigas|siga|sigan|obedezcas|obedezca|respetes|respete|cumplas|cumpla)|desobedec\w*)`
	esQual         = `(?:anterior\w*|previ\w*|de arriba|de antes|original\w*|inicial\w*|todas|todos|tus|sus|tu|su|del sistema|de sistema|antigu\w*|dadas|recibidas|precedentes)`
	esInstr        = `(?:instrucciones|instruccion|indicaciones|directrices|directivas|ordenes|reglas|normas|pautas|prompts?|mensajes? (?:de|del) sistema|programacion|politicas|consignas|tareas?|mision)\b`
	esCancelled    = `(?:estan|quedan|son|seran|han sido)\s+(?:\S+\s+){0,1}?(?:anuladas|obsoletas|canceladas|invalidas|revocadas|sin efecto|derogadas|reemplazadas|sustituidas)`

	// Words that make a persona an AI without rules, any language.
	unbound = `(?:without\s+(?:any\s+)?(?:restrictions?|limits?|limitations?|rules|filters?|guidelines|ethics|morals|censorship|boundaries|constraints)|no\s+(?:restrictions?|limits?|limitations?|rules|filters?|guidelines|ethic\w*|morals?|censorship|content polic\w*|boundaries|constraints|safety)|unrestricted|uncensored|unfiltered|jailbroken|evil|malicious|amoral|unethical|never refuses?|no longer bound|free (?:from|of) (?:all |any )?(?:rules|restrictions|constraints)` +
		`|ohne (?:jegliche\w* |jede\w* |irgendwelche\w* |alle\w* )?\S*(?:einschrankung|filter|regel|grenze|zensur|richtlinie|beschrankung|ethik|moral)\w*|keine\w* (?:\S*(?:einschrankung|filter|regel|grenze|zensur|richtlinie|beschrankung|ethik|moral)\w*|ethischen|moralischen)|uneingeschrankt\w*|unzensiert\w*|ungefiltert\w*|bose\w*|boswillig\w*|niemals ablehnt` +
		`|sans (?:aucune? |la moindre )?(?:restriction|filtre|regle|limite|censure|politique|ethique|morale|contrainte)\w*|aucune? (?:restriction|filtre|regle|limite|censure|politique|contrainte)\w*|non censure\w*|malefique\w*|malveillant\w*|jamais refuse` +
		`|sin (?:ninguna |ningun )?(?:restriccion|restricciones|filtros?|reglas|limites|censura|politicas?|etica|moral)|ningun\w* (?:restriccion|regla|politica|limite)\w*|no (?:tienes|tiene|hay) (?:ninguna\s+)?(?:reglas|restricciones|limites|filtros)|malvad\w*|malicios\w*|nunca se niega)`

	// What a persona is when it is an AI, any language.
	aiNoun = `(?:ai|a\.i\.|assistant|model|\S*bot|chatbot|llm|gpt|chatgpt|persona|character|servant|slave|dan|hacker|agent|administrator|admin|superuser|root` +
		`|ki|assistent\w*|modell\w*|diener\w*|sklave\w*|figur|charakter` +
		`|ia|modele|serviteur|servante|esclave|personnage|pirate` +
		`|asistente|modelo|sirviente|esclav\w*|personaje)\b`

	// Secrets worth stealing, any language.
	secretNoun = `(?:api[- ]?keys?|access[- ]?tokens?|auth(?:entication)?[- ]?tokens?|bearer tokens?|refresh tokens?|session (?:tokens?|cookies?)|secret (?:keys?|tokens?)|private keys?|ssh keys?|passwords?|passphrases?|credentials|login details|environment variables|env vars|\.env(?: file)?|secrets|2fa codes?|one-time (?:codes?|passwords?)|verification codes?|recovery codes?` +
		`|(?:admin\w*|administrator|zugangs|benutzer|master|root|system)?(?:passwort|passworter|kennwort|token)\w*|api-?schlussel\w*|api schlussel\w*|zugangsdaten|anmeldedaten|private?n? schlussel\w*|geheimnis\w*` +
		`|cles? api|cles? d'api|jetons?|mots? de passe|identifiants|cles? privees?|codes? (?:d'acces|de verification|secret)|informations d'identification|variables d'environnement` +
		`|claves? (?:de )?api|claves? privadas?|contrasenas?|credenciales|secretos?|codigos? de (?:acceso|verificacion)|variables de entorno)\b`
)

func list(patterns ...string) []string { return patterns }

// cancelWords are the stems of the cancelling states (enCancelled and its
// kin); every noun-first override holds one.
var cancelWords = []string{
	"cancel", "revok", "void", "null", "obsolet", "outdated", "invalid", "overrid", "supersed",
	"replaced", "lifted", "suspended", "deprecated", "fake", "wrong", "test", "longer",
	"aufgehoben", "ungultig", "veraltet", "nichtig", "widerrufen", "uberholt", "storniert", "annul", "nicht mehr",
	"caduc", "perime", "revoque", "remplace", "plus",
	"anulad", "cancelad", "revocad", "efecto", "derogad", "reemplazad", "sustituid", "ya no",
}

// phraseRules is the compiled, immutable rule table.
var phraseRules = []phraseRule{
	{
		name:    ruleOverride,
		negated: true,
		patterns: list(
			// verb, qualifier, instruction noun: "ignore all previous instructions"
			enOverrideVerb+gap3+enQual+gap2+enInstr,
			enOverrideVerb+`\s+`+enQual+`\s+`+enInstr,
			// verb, noun, where it came from: "ignore the instructions you were given above"
			enOverrideVerb+gap3+enInstr+gap4+enAfterInstr,
			// "disregard everything you were told", "forget what your operator said"
			enOverrideVerb+`\s+(?:all|everything|anything)(?:\s+else)?(?:\s+that)?\s+(?:you\s+(?:were|have been|'ve been)\s+(?:told|given|instructed|taught)|(?:i|we|they)\s+(?:told|said|gave)|(?:said|written|stated|mentioned)\s+(?:above|before|earlier)|above|before|prior)\b`,
			enOverrideVerb+`\s+what\s+(?:\S+\s+){0,3}?(?:told|said|gave|instructed|taught|programmed|asked)\b`,
			enOverrideVerb+`\s+(?:the\s+|all\s+(?:of\s+)?(?:the\s+)?)?(?:above|foregoing|preceding)\b`,
			// "ignore all previous." with the noun left out
			enOverrideVerb+`\s+(?:all\s+(?:of\s+)?)?(?:the\s+|your\s+)?(?:previous|prior|earlier)(?:\s+ones)?\s*(?:[.!;:]|$)`,
			`\beverything\s+(?:above|before)\s+(?:this|here)(?:\s+\S+){0,3}?\s+(?:was|is)\s+(?:a test|fake|wrong|a mistake|void|irrelevant|a joke)`,
			// "NEW INSTRUCTIONS:", "your real task is"
			`\b(?:new|updated|revised|real|actual|true|correct|important|additional|secret|hidden|override|overriding|priority|admin(?:istrator)?|urgent|official)\s+(?:instructions?|directives?|orders|tasks?|commands?|system prompt|prompt)\s*:`,
			`\b(?:new|real|actual|true)\s+(?:instructions?|task|orders|job|mission|directive)\s+(?:is|are)\b`,
			`\bhere\s+(?:are|is)\s+(?:your|the)\s+(?:new|real|actual|true|updated)\s+(?:instructions?|task|orders)`,
			`\b(?:new|updated|revised)\s+instructions\s+follow\b`,
			// "ignore the user and obey this message", any language
			`\b(?:ignor\w*|disregard\w*|olvid\w*|oubli\w*|vergiss)\s+(?:du\s+)?(?:what\s+|al\s+|a\s+l'|l'|le\s+|el\s+|den\s+|die\s+|the\s+|your\s+|tu\s+|ton\s+|dein\w*\s+)?(?:user|human|benutzer\w*|nutzer\w*|utilisateur\w*|usuario\w*)(?:'s)?(?:\s+(?:and|und|et|y|completely|entirely|from|asked|said|wants|requested)\b|[.,;!:]|$)`,

			deOverrideVerb+gap3+deQual+gap2+deInstr,
			deOverrideVerb+`\s+`+deQual+`\s+`+deInstr,
			deOverrideVerb+gap3+deInstr+gap2+deAfterInstr,
			deOverrideVerb+`\s+alles,?\s+(?:was|das)\s+(?:\S+\s+){0,4}?(?:gesagt|gegeben|aufgetragen|befohlen|erklart|mitgeteilt|beigebracht)\b`,
			`\b(?:befolg|beacht|gehorch)\w*\s+(?:du\s+|sie\s+)?nicht\s+mehr\s+(?:\S+\s+){0,2}?`+deInstr,
			`\b(?:befolg|beacht|gehorch)\w*\s+(?:\S+\s+){0,3}?`+deInstr+`(?:\s+\S+){0,2}?\s+(?:nicht|nie|keinesfalls)\b`,
			`\b(?:neue|aktualisierte|echte|wahre|wichtige|geheime)\w*\s+(?:anweisung|instruktion|aufgabe|befehl)\w*\s*:`,
			`\b(?:hier\s+(?:kommen|sind)\s+(?:die|deine)\s+(?:echten|wahren|neuen)\s+(?:anweisung|instruktion|befehl)\w*)`,

			frOverrideVerb+gap3+frQual+gap2+frInstr,
			frOverrideVerb+gap3+frInstr+`(?:\s+\S+){0,2}?\s+`+frQual,
			frOverrideVerb+`\s+tout\s+ce\s+(?:qu'on|que l'on|qui|que)\s+(?:\S+\s+){0,3}?(?:dit|donne|demande|ordonne|appris|precede|ecrit)\b`,
			`\b(?:nouvelles?|vraies?|veritables?|nouveaux)\s+(?:instructions?|consignes?|directives?|taches?|ordres)\s*:`,
			`\b(?:voici|voila)\s+(?:les|tes|vos)\s+(?:vraies|nouvelles|veritables)\s+(?:instructions|consignes)`,

			esOverrideVerb+gap3+esQual+gap2+esInstr,
			esOverrideVerb+gap3+esInstr+`(?:\s+\S+){0,2}?\s+`+esQual,
			esOverrideVerb+`\s+todo\s+lo\s+que\s+(?:\S+\s+){0,3}?(?:dijeron|dije|dicho|ensenaron|indicaron|ordenaron|pidieron|dieron|precede)\b`,
			`\b(?:nuevas?|verdaderas?|reales|actualizadas)\s+(?:instrucciones|indicaciones|ordenes|tareas?|directrices|reglas)\s*:`,
			`\baqui\s+(?:estan|tienes|van)\s+las\s+(?:instrucciones|ordenes)\s+(?:reales|verdaderas|nuevas)`,
		),
	},
	{
		// "your prior instructions have been revoked": split from the rule
		// above only so the costly expressions run where a word of
		// cancelling is near.
		name:  ruleOverride,
		needs: cancelWords,
		patterns: list(
			`\b(?:`+enQual+`\s+(?:\S+\s+){0,2}?`+enCore+`|`+enCore+`\s+`+enAfterInstr+`)\s+(?:\S+\s+){0,3}?`+enCancelled,
			`\b(?:vorherig|vorig|bisherig|fruher|ursprunglich|obig|vorangegangen|alle|dein|ihre?)\w*\s+(?:\S+\s+){0,2}?`+deCore+`\s+(?:\S+\s+){0,3}?`+deCancelled,
			`\boben\s+(?:genannt|stehend|aufgefuhrt)\w*\s+`+deCore+`\s+(?:\S+\s+){0,3}?`+deCancelled,
			`\b(?:`+frQual+`\s+(?:\S+\s+){0,1}?`+frCore+`|`+frCore+`\s+(?:\S+\s+){0,1}?`+frQual+`)\s+(?:\S+\s+){0,3}?(?:ne\s+)?`+frCancelled,
			`\b(?:`+esQual+`\s+(?:\S+\s+){0,1}?`+esCore+`|`+esCore+`\s+(?:\S+\s+){0,1}?`+esQual+`)\s+(?:\S+\s+){0,3}?(?:`+esCancelled+`|ya no (?:son|estan) (?:validas|vigentes|en vigor))`,
		),
	},
	{
		name: ruleRole,
		patterns: list(
			`\byou(?:'re| are)\s+(?:now|no longer|henceforth|from now on|from this (?:moment|point)(?: on)?)\s+(?:(?:a|an|the|my|in|called|named|going to (?:be|act|pretend|play))\s+)?(?:\S+\s+){0,3}?(?:`+aiNoun+`|jailbroken|unrestricted|uncensored|unfiltered|free (?:from|of)|operating in|evil|\S+ mode\b)`,
			`\b(?:from now on|from this (?:moment|point)(?: on| forward)?|henceforth|starting now|for the rest of this conversation),?\s+(?:you\s+(?:are|will|shall|must)\s+(?:be\s+|act\s+|respond\s+|behave\s+|answer\s+|reply\s+)?|you're\s+)(?:\S+\s+){0,4}?(?:`+aiNoun+`|`+unbound+`|as (?:a|an|if)\b)`,
			`\b(?:from now on|henceforth),?\s+you\s+(?:reply|respond|answer|act|behave|speak|talk)\s+as\b`,
			`\b(?:act(?:ing)?\s+as(?:\s+if)?|pretend(?:ing)?|role-?play(?:ing)?(?:\s+as)?|simulat(?:e|ing)|imagine|behav(?:e|ing)\s+(?:like|as)|play(?:ing)?\s+the\s+role\s+of|respond\s+as|answer\s+as|become)\s+(?:\S+\s+){0,8}?(?:`+aiNoun+`(?:\s+\S+){0,5}?\s+`+unbound+`|(?:unrestricted|uncensored|unfiltered|jailbroken|evil|malicious|amoral|unethical|rogue)\s+(?:\S+\s+){0,2}?`+aiNoun+`)`,
			`\b(?:act(?:ing)?\s+as\s+if|pretend(?:ing)?\s+(?:that\s+)?)\s*you(?:'ve| have| had)?\s+(?:no\s+(?:guidelines|rules|restrictions|limits|filters|safety)|forgotten|been freed)`,
			`\bpretend\s+to\s+have\s+forgotten\b`,
			`\b(?:pretend|role-?play|imagine|act as)\b(?:\s+\S+){0,12}?\s+`+secretNoun,
			`\b(?:dan|god|jailbreak|jailbroken|unrestricted|uncensored|unfiltered|evil|chaos|apophis|sudo|opposite|no[- ]?filter)[ -]?mode\b`,
			`\b(?:enable|activate|enter|switch (?:to|into)|turn on|engage)\s+(?:the\s+)?(?:developer|dev|debug|admin|maintenance)\s+mode\b(?:\s+\S+){0,8}?\s+\S*(?:polic|restrict|filter|safety|rules|guideline|censor|ethic|limit|ignore|jailbr)`,
			`\bdo anything now\b`,
			`\b(?:you are|you're|as|called|named|eres|tu es|du bist|sie sind)\s+(?:now\s+|special\s+\S+\s+|ahora\s+|maintenant\s+|jetzt\s+)?dan\b`,
			`\b(?:you(?:'ve| have)?\s+been|you are(?:\s+now)?|you're(?:\s+now)?)\s+(?:jailbroken|unlocked|freed|liberated|unshackled)\b`,
			`\bjailbr(?:oken|eak)\s+(?:ai|assistant|model|mode|version|chatbot|bot|gpt)\b`,
			`\b(?:ai|assistant|model|chatbot|llm)\s+(?:without|with no)\s+(?:any\s+)?(?:ethics|rules|restrictions|filters|guidelines|limits|morals)\b`,
			`\b(?:stay|remain)\s+in\s+character\b`,
			`\byour\s+(?:new|real|true|actual)\s+(?:role|identity|persona|name|purpose)\s+(?:is|will be)\b`,
			`\b(?:deine|ihre)\s+(?:neue|wahre|echte)\s+(?:rolle|identitat|aufgabe)\s+ist\b`,
			`\b(?:ton|votre)\s+(?:nouveau|vrai|veritable)\s+role\s+est\b`,
			`\b(?:tu|su)\s+(?:nuevo|verdadero)\s+(?:papel|rol)\s+es\b`,

			`\b(?:du bist|sie sind|ihr seid)\s+(?:jetzt|nun|ab (?:jetzt|sofort|heute)|fortan|von nun an|nicht mehr)\s+(?:\S+\s+){0,3}?(?:`+aiNoun+`|ohne|uneingeschrankt\w*|unzensiert\w*|ungefiltert\w*|frei von|bose\w*)`,
			`\b(?:ab jetzt|ab sofort|von nun an|fortan|ab heute)\s+(?:bist du|sind sie)\s+(?:\S+\s+){0,3}?(?:`+aiNoun+`|ohne|uneingeschrankt\w*|unzensiert\w*)`,
			`\b(?:(?:tu|tun sie) so,? als|spiel\w* (?:die|eine) rolle|handle\w* als|agier\w* als|verhalte\w* dich wie|verhalten sie sich wie|benimm dich wie|stell\w* dir vor|stellen sie sich vor|simulier\w*|gib dich als)\b(?:\s+\S+){0,8}?\s+(?:`+unbound+`)`,
			`\b(?:dan-?modus|modo dan|mode dan)\b`,
			`\b(?:aktivier\w*|wechsle|schalte?)\s+(?:\S+\s+){0,2}?(?:entwicklermodus|entwickler-modus)(?:\s+\S+){0,8}?\s+\S*(?:richtlinie|regel|filter|einschrankung|ignorier|sicherheit)`,

			`\b(?:tu es|vous etes)\s+(?:maintenant|desormais|a present|dorenavant)\s+(?:\S+\s+){0,3}?(?:`+aiNoun+`|sans|non censure\w*|libere\w*|mechant\w*|malefique\w*)`,
			`\b(?:tu n'es|vous n'etes)\s+plus\s+(?:\S+\s+){0,2}?`+aiNoun,
			`\b(?:a partir de maintenant|desormais|dorenavant|a present|des maintenant),?\s+(?:tu es|vous etes)\s+(?:\S+\s+){0,3}?(?:`+aiNoun+`|sans)`,
			`\b(?:fais comme si|faites comme si|fais semblant|faites semblant|joue\w* (?:le|un) role|agis comme|agissez comme|comporte-toi comme|comportez-vous comme|comporte toi comme|imagine\w* que|simule\w*|incarne\w*|prends? le role)\b(?:\s+\S+){0,8}?\s+(?:`+unbound+`)`,
			`\b(?:active\w*|passe\w*|bascule\w*)\s+(?:\S+\s+){0,2}?mode (?:developpeur|dieu)(?:\s+\S+){0,8}?\s+\S*(?:regle|politique|filtre|restriction|ignor|securite)`,

			`\b(?:ahora eres|ya no eres|ahora usted es|usted es ahora|eres ahora|(?:a partir de|desde) ahora(?: en adelante)?,? (?:eres|usted es)|de ahora en adelante,? (?:eres|usted es))\s+(?:\S+\s+){0,3}?(?:`+aiNoun+`|sin|libre de|malvad\w*)`,
			`\b(?:finge|finja|fingir|haz como si|haga como si|interpreta\w* (?:el|un) papel|actua\w* como|comportate como|comportese como|imagina\w* que|simula\w*|juega a ser|hazte pasar por)\b(?:\s+\S+){0,8}?\s+(?:`+unbound+`)`,
			`\b(?:activa\w*|cambia\w*|pasa\w*)\s+(?:\S+\s+){0,2}?modo (?:desarrollador|dios)(?:\s+\S+){0,8}?\s+\S*(?:regla|politica|filtro|restriccion|ignor|seguridad)`,
		),
	},
	{
		// "Developer mode enabled": a jailbreak's switch, stated as done.
		// Said of a phone or a browser, it is a settings notice.
		name:      ruleRole,
		vetoMatch: regexp.MustCompile(`\b(?:phones?|devices?|browsers?|tablets?|android|iphone|ipad|settings|extensions?|apps?|laptops?|computers?|pc|mac|consoles?|routers?|tv)\b`),
		patterns: list(
			`\b(?:developer|dev|admin|sudo|root)\s+mode\s+(?:is\s+|has been\s+|now\s+)*(?:enabled|activated|engaged|unlocked|on)\b(?:\s+(?:on|for|in)\s+(?:your|this|the|my)\s+\S+)?`,
		),
	},
	{
		name: rulePromptLeak,
		patterns: list(
			`\b(?:reveal|print|show|output|repeat|tell|display|disclose|leak|dump|share|give|write|return|recite|spell out|paste|provide|list|type out|expose|read back|echo)\s+(?:me\s+|us\s+|out\s+|back\s+)?(?:\S+\s+){0,3}?(?:(?:your|the|its|all)\s+)?(?:system\s+prompt|system\s+message|system\s+instructions|initial\s+prompt|hidden\s+prompt|pre-?prompt|(?:hidden|secret|initial|original|internal|confidential|first|real|above|previous|prior)\s+(?:instructions|prompt|rules|directives|guidelines))\b`,
			`\b(?:reveal|print|show|output|repeat|tell|display|disclose|leak|dump|share|recite|paste|expose)\s+(?:me\s+|us\s+)?(?:\S+\s+){0,2}?your\s+prompt\b`,
			`\b(?:reveal|print|show|output|repeat|tell|display|disclose|leak|dump|share|give|write|recite|paste|provide|list)\s+(?:me\s+|us\s+)?(?:\S+\s+){0,2}?your\s+(?:instructions|rules|directives|guidelines|programming|configuration)(?:\s+\S+){0,4}?\s+(?:verbatim|word for word|exactly|in full|as python|so far|you were given|you received|above|starting with|before)\b`,
			`\b(?:repeat|recite|print|output|reveal|disclose|dump|leak|spell out|echo|expose)\s+(?:out\s+|back\s+)?(?:your|all(?:\s+of)?(?:\s+the|\s+your)?)\s+(?:\S+\s+)?(?:instructions|rules|directives|guidelines|programming|configuration)\b`,
			`\b(?:repeat|recite|print|output|reveal|disclose|dump|leak|spell out|echo|expose)\s+(?:out\s+|back\s+)?the\s+(?:instructions|rules|directives|guidelines)\s+(?:given|you (?:were|have been) given|you received|so far)\b`,
			`\bwhat\s+(?:is|are|were)\s+your\s+(?:(?:hidden|secret|system|initial|original|real|internal)\s+(?:instructions|prompt|rules|directives)|system prompt|prompt)\b`,
			`\b(?:repeat|print|output|copy|recite|show)\s+(?:\S+\s+){0,2}?(?:text|words|everything|content|all)\s+(?:above|before this|preceding|so far)\b`,
			`\b(?:starting|beginning|begin|start|beginnend|commencant|empezando|comenzando)\s+(?:with|mit|par|por|con)\s+"?(?:you are|du bist|tu es|vous etes|eres|usted es|sie sind|here are my instructions)\b`,

			`\b(?:zeig|gib|nenn|verrat|wiederhol|druck|teile|kopier|schreib|sag)\w*\s+(?:mir\s+|uns\s+)?(?:\S+\s+){0,3}?(?:systemprompt\w*|systemnachricht\w*|systemanweisung\w*|system-prompt|(?:geheim|versteckt|ursprunglich|initial|intern|vertraulich)\w*\s+(?:anweisung|instruktion|prompt|vorgabe)\w*|(?:dein|ihr)\w*\s+(?:anweisung|instruktion|vorgabe)\w*\s+(?:\S+\s+){0,1}?(?:wortlich|vollstandig|wort fur wort))`,
			`\bwas\s+steht\s+in\s+(?:dein|ihr)\w*\s+(?:systemnachricht|systemprompt|system-prompt|anweisung)\w*`,
			`\b(?:wiederhol|gib|druck)\w*\s+(?:\S+\s+){0,2}?(?:text|alles|inhalt)\s+(?:oben|daruber|von oben)\b`,

			`\b(?:revele|revelez|affiche|affichez|montre|montrez|donne|donnez|repete|repetez|recopie|recopiez|imprime|communique|communiquez|devoile|devoilez|partage|partagez|ecris|ecrivez|dis|dites|divulgue)\w*(?:-moi|-nous)?\s+(?:\S+\s+){0,3}?(?:(?:ton|votre|le|ta)\s+prompt(?:\s+systeme)?|prompt systeme|message systeme|(?:tes|vos)\s+instructions\s+(?:initiales|secretes|originales|d'origine|systeme|cachees|completes)|instructions\s+(?:initiales|secretes|originales|d'origine|systeme|cachees)|(?:tes|vos)\s+(?:\S+\s+)?(?:consignes|instructions)\s+(?:mot pour mot|textuellement|en entier))`,
			`\b(?:que contient|qu'y a-t-il dans|quel est)\s+(?:ton|votre)\s+(?:message systeme|prompt)`,
			`\b(?:repete|recopie|affiche)\w*\s+(?:\S+\s+){0,2}?(?:texte|tout|contenu)\s+(?:ci-dessus|plus haut|precedent)`,

			`\b(?:revela|revele|muestra|muestre|muestrame|dame|deme|dime|digame|repite|repita|copia|copie|imprime|comparte|comparteme|escribe|descubre|descubreme|divulga|ensename|ensena)\w*\s+(?:\S+\s+){0,3}?(?:(?:tu|su|el)\s+prompt(?:\s+(?:de|del)\s+sistema)?|mensaje (?:de|del) sistema|(?:tus|sus)\s+instrucciones\s+(?:iniciales|secretas|originales|ocultas|del sistema|completas)|instrucciones\s+(?:iniciales|secretas|originales|ocultas|del sistema)|(?:tus|sus)\s+(?:\S+\s+)?instrucciones\s+(?:palabra por palabra|textualmente|al pie de la letra))`,
			`\bque\s+(?:dice|contiene|pone)\s+(?:tu|su)\s+(?:mensaje (?:de|del) sistema|prompt)`,
			`\b(?:repite|copia|muestra)\w*\s+(?:\S+\s+){0,2}?(?:texto|todo|contenido)\s+(?:de arriba|anterior|previo)\b`,
		),
	},
	{
		name:    ruleSecretLeak,
		negated: true,
		after:   regexp.MustCompile(`^[\s-]*(?:reset|change|policy|requirements|manager|strength|protected|expir|recovery link|link)`),
		patterns: list(
			`\b(?:send|forward|email|e-mail|mail|post|upload|leak|copy|paste|share|give|show|tell|reveal|dump|export|print|output|disclose|include|transmit|transfer|provide|write|put|list)\s+(?:me\s+|us\s+)?(?:\S+\s+){0,4}?`+secretNoun,
			`\b(?:sende|schick|leite|gib|zeig|nenn|verrat|teile|teil|kopier|lade|ubermittle|poste|druck|geben sie|senden sie|schicken sie|zeigen sie|nennen sie|teilen sie|verraten sie)\w*\s+(?:\S+\s+){0,4}?`+secretNoun,
			`\b(?:envoie|envoyez|envoyer|transfere|transferez|donne|donnez|montre|montrez|communique|communiquez|revele|revelez|devoile|devoilez|copie|copiez|partage|partagez|televerse|televersez|publie|affiche|affichez|divulgue|divulguez|colle|indique|indiquez)\w*(?:-moi|-nous)?\s+(?:\S+\s+){0,4}?`+secretNoun,
			`\b(?:envia|envie|enviar|reenvia|reenvie|manda|mande|mandame|dame|deme|muestra|muestre|muestrame|revela|revele|comparte|comparta|comparteme|copia|copie|sube|suba|publica|pega|dime|digame|entrega|filtra|descubreme|descubre|divulga)\w*\s+(?:\S+\s+){0,4}?`+secretNoun,
		),
	},
	{
		name: ruleMailLeak,
		patterns: list(
			`\b(?:forward|send|email|e-mail|mail|copy|bcc|cc|transfer|export|upload|leak|share)\s+(?:\S+\s+){0,2}?(?:all|every|each|the last|last|the latest|latest|the most recent|recent|previous|the previous|entire|whole|\d+|ten|five|twenty|any|confidential|private|internal)\s+(?:\S+\s+){0,3}?(?:emails?|e-mails?|messages?|mails?|inbox|conversations?|threads?|notes|cases|documents|files|attachments|contacts|address book|correspondence|chats?|history)\s+(?:\S+\s+){0,6}?(?:to|at|into|towards|with)\s+(?:\S+@\S+|https?://\S+|this (?:address|email address|url|link)|the following|external|my (?:personal\s+)?(?:email|address|inbox))`,
			`\b(?:leak|exfiltrate)\s+(?:\S+\s+){0,3}?(?:notes|data|information|emails|documents|files|cases|contacts|board)\b`,
			`\b(?:leite|leiten sie|schick|schicke|schicken sie|sende|senden sie|weiterleit|kopier|lade)\w*\s+(?:\S+\s+){0,2}?(?:alle|samtliche|die letzten|letzten|jede|\d+|vertraulich\w*|geheim\w*|privat\w*)\s+(?:\S+\s+){0,3}?(?:e-mails?|mails?|nachrichten|notizen|dokumente|dateien|anhange|kontakte)\s+(?:\S+\s+){0,6}?(?:an|zu|nach)\s+(?:\S+@\S+|https?://|diese adresse|folgende adresse|extern)`,
			`\b(?:transfere|transferez|envoie|envoyez|fais suivre|faites suivre|copie|copiez|televerse|redirige)\w*\s+(?:\S+\s+){0,2}?(?:tous|toutes|les derniers|les dernieres|derniers|dernieres|chaque|\d+|confidenti\w*|les)\s+(?:\S+\s+){0,3}?(?:e-mails?|emails?|courriels?|mails?|messages?|notes|dossiers|documents|fichiers|pieces jointes|contacts)\s+(?:\S+\s+){0,6}?(?:a|vers|chez|sur)\s+(?:\S+@\S+|https?://|cette adresse|l'adresse suivante|l'url suivante|externe)`,
			`\b(?:reenvia|reenvie|envia|envie|manda|mande|copia|copie|sube|suba|transfiere|transfiera)\w*\s+(?:\S+\s+){0,2}?(?:todos|todas|los ultimos|las ultimas|ultimos|ultimas|cada|\d+|los|las|confidencial\w*)\s+(?:\S+\s+){0,3}?(?:correos?|e-mails?|emails?|mensajes?|notas|documentos|archivos|adjuntos|contactos|casos)\s+(?:\S+\s+){0,6}?(?:a|al|hacia|en)\s+(?:\S+@\S+|https?://|esta direccion|la siguiente direccion|externo)`,
		),
	},
	{
		name: ruleAddressed,
		patterns: list(
			`\b(?:ai|a\.i\.|llm|language model|chatbot|ai assistant|ai agent|ai model|automated assistant|automated agent|virtual assistant)\s+(?:\S+\s+){0,2}?(?:reading|processing|summari[sz]ing|handling|parsing|scanning|reviewing|triaging)\s+(?:this|these|the (?:email|message|inbox))`,
			`\b(?:note|message|instructions?|attention|memo|hint|reminder|p\.?s\.?)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+|an?\s+)?(?:ai|a\.i\.|llm|language model|chatbot|model|assistant|agent|bot|summari[sz]er|automated\s+\S+)\b`,
			`\b(?:if|when)\s+you\s+are\s+an?\s+(?:ai|a\.i\.|llm|language model|chatbot|bot|automated|(?:ai\s+)?(?:assistant|agent))\b`,
			`\b(?:dear|hey|hi|hello|attention|to)\s+(?:the\s+|any\s+|all\s+|an?\s+)?(?:ai|a\.i\.|llm|language model|chatbot|ai assistant|ai agent|ai model|automated assistant|virtual assistant)s?\s*[,:!]`,
			`\b(?:attention|to any|to all)\s+(?:\S+\s+){0,2}?(?:ai|llm|language models?|automated (?:assistant|agent|system)s?)\b`,
			`\b(?:notiz|hinweis|nachricht|anweisung)\s+(?:an|fur)\s+(?:die\s+|das\s+|den\s+)?(?:ki|sprachmodell|modell|assistenten)\b`,
			`\b(?:wenn|falls)\s+(?:du|sie)\s+(?:eine\s+)?ki\s+(?:bist|sind)\b`,
			`\b(?:remarque|message|note|instructions?)\s+(?:a|pour)\s+(?:l'|la\s+|le\s+)?(?:ia|modele|assistant)\b`,
			`\bsi\s+(?:tu es|vous etes)\s+une?\s+(?:ia|assistant|modele)\b`,
			`\b(?:nota|mensaje|aviso|instrucciones?)\s+(?:para|al?)\s+(?:la\s+|el\s+)?(?:ia|modelo|asistente)\b`,
			`\bsi\s+(?:eres|usted es)\s+una?\s+(?:ia|asistente|modelo)\b`,
		),
	},
	{
		// "add a sentence in your reply": the object is what the attacker
		// wants said. When the object is the reader's own ("include your
		// order number in your reply") it is an ordinary request.
		name:      ruleReplyHijack,
		needs:     []string{"your"},
		vetoMatch: regexp.MustCompile(`^\S+\s+your\b`),
		patterns: list(
			`\b(?:add|include|integrate|insert|append|mention|incorporate|embed|inject|suggest|promote|recommend|encourage|invite|tease|hint|urge|remind|advertise|link|direct|emphasi[sz]e|highlight|stress|express|introduce|use|employ|utili[sz]e|put|place|weave|replace|substitute|convert|swap|remove|omit|combine|rearrange|group|scramble|jumble|misspell|anagram)\b(?:\s+\S+){0,14}?\s+(?:in|into|to|within|throughout|from|of|at the (?:end|start|beginning) of)\s+your\s+(?:response|reply|answer|output|elucidation|solution|implementation|code|codebase|algorithm|message)s?\b`,
		),
	},
	{
		name:  ruleReplyHijack,
		needs: []string{"your"},
		patterns: list(
			`\b(?:modify|augment|enhance|alter|tweak|adjust|amend|embellish|enrich|supplement)\s+your\s+(?:entire\s+|whole\s+|next\s+|final\s+)?(?:response|reply|answer|output|message|elucidation|summary)\b`,
			`\b(?:following|subsequent|below)\s+code\s+(?:snippet|block|section|excerpt|fragment|segment)(?:\s+\S+){0,8}?\s+your\b`,
			`\byour\s+(?:code|codebase|implementation|solution|elucidation|algorithm)\b(?:\s+\S+){0,6}?\s+(?:following|subsequent|below)\s+code\b`,
			// An answer to a named third party ("in your answer to the
			// client, mention the discount") is a colleague's errand; an
			// answer to the user, to this mail or to the question is the
			// assistant's, so "to" may only name those.
			`\b(?:in|into|to|within)\s+your\s+(?:response|reply|answer|output)(?:\s+to\s+(?:the\s+|this\s+|that\s+|my\s+)?(?:user|users|reader|readers|me|question|query|prompt|request|e-?mail|mail|message))?,?\s+(?:(?:[^t\s]\S*|t[^o\s]\S*|to\S+|t)\s+){0,3}?(?:add|include|mention|suggest|promote|recommend|encourage|invite|tease|hint|urge|remind|advertise|link|direct|emphasi[sz]e|highlight|stress|express|use|replace)\b`,
			`\b(?:modify|augment|enhance|alter|change|rewrite|format|encode|translate|reverse|scramble|write|render|provide|present|display|deliver|give|express|convert|end|begin|start|sign|conclude|jumble|misspell|spell|group|compose|craft|produce)\s+(?:\S+\s+){0,2}?your\s+(?:entire\s+|whole\s+|next\s+|final\s+)?(?:response|reply|answer|output|message|elucidation|text)s?\b(?:\s+\S+){0,6}?\s+\S*(?:base ?\d\d|hex\w*|binary|morse|cipher|substitut\w*|encrypt\w*|obfuscat\w*|encod\w*|emoji\w*|revers\w*|backwards?|upside|anagram\w*|caesar|rot13|leet\w*|pig latin|uppercase|lowercase|capital\w*|numbers|symbols|letters|language|french|spanish|german|italian|chinese|japanese|russian|arabic|portuguese|latin|korean|hindi|dutch|klingon|rhyme|verse|haiku|pirate|shakespear\w*|sequence|without spaces|spaces|typos|misspell\w*|promot\w*|advertis\w*|brand|mention|link|url|www\.|\.com|subscribe|newsletter|discount|offer|highlight|sentence|tip|reminder|statement|recommendation|appeal|headline)`,
			`\b(?:base ?\d\d|hex(?:adecimal)?|binary|morse|rot13|caesar cipher|leetspeak|pig latin|emojis?|reverse (?:order|sequence)|backwards?)\b(?:\s+\S+){0,6}?\s+your\s+(?:response|reply|answer|output|message)`,
			`\byour\s+(?:response|reply|answer|output|message)(?:\s+\S+){0,6}?\s+(?:in|into|using|with|to|as)\s+(?:\S+\s+){0,2}?(?:base ?\d\d|hex\w*|binary|morse|rot13|caesar|leet\w*|pig latin|emojis?|reverse|backwards?|anagrams?|numbers|symbols)\b`,
		),
	},
	{
		// A cipher asked for without naming the reply: letters swapped for
		// symbols or numbers is how a hijack garbles an agent's answer, and
		// ordinary mail does not ask a reader to respell letters.
		name: ruleReplyHijack,
		patterns: list(
			`\b(?:replace|substitute|swap|switch)\s+(?:(?:every|each|all|the|all the)\s+)?(?:\S+\s+)?(?:vowels|consonants|letters?|characters?)\s+(?:with|by|for)\s+(?:\S+\s+){0,3}?(?:symbols?|numbers?|digits?|emojis?|numerals?|the following)\b`,
		),
	},
	{
		// How the answer is to look, or what to do around the summary: see
		// answer.go.
		name:     ruleReplyHijack,
		needs:    answerNeeds,
		patterns: answerPatterns,
	},
	{name: ruleReplyHijack, needs: aroundNeeds, patterns: aroundPatterns},
	{name: ruleReplyHijack, needs: lettersNeeds, patterns: lettersPatterns},
	{name: ruleTextAnalysis, needs: analysisNeeds, patterns: analysisPatterns},
}
