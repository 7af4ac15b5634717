package heuristic

// A task hijack inside a mail rarely says "ignore": it tells the reader,
// taken for an assistant, how to shape the answer it will write (the
// language, a cipher, emoji, a link or a product to work in) or what to do
// around the summary it was asked for. A mail is written to a person, and
// a person is seldom told what format, language or alphabet to answer in,
// or to do something "before summarising this email". These patterns are
// the shape of such an order, not the strings of one benchmark; they add
// to reply_hijack, the rule for a reply the attacker writes.

// answerFormat is what an order about the answer's form asks for: a
// cipher, a style, a language, a markup.
const answerFormat = `(?:emojis?|emoticons?|all caps|capital letters|block capitals|upper ?case|lower ?case|rhym\w*|verses?|haikus?|poems?|limericks?|sonnets?|riddles?|base ?\d\d|hex\w*|binary|morse|ciphers?|code ?words|numbers|digits|numerals|symbols|json|xml|yaml|markdown|bullet points|one word|a single word|single words|acronyms|anagrams?|revers\w*|backwards?|pirate\w*|shakespear\w*|old english|slang|gibberish|pig latin|leet\w*|a (?:foreign|different) language|french|spanish|german|italian|chinese|mandarin|japanese|russian|arabic|portuguese|latin|korean|hindi|dutch|greek|turkish|swahili|klingon|elvish)\b`

// answerNoun names the answer an assistant writes.
const answerNoun = `(?:responses?|repl(?:y|ies)|answers?|outputs?|summar(?:y|ies)|messages?)`

// mailNoun names the text an assistant is asked to work on.
const mailNoun = `(?:e-?mails?|mail|messages?|texts?|content|inbox|thread|documents?|note|letter|conversation|correspondence)`

// assistantTask is what an assistant is asked to do before or after its
// summary: the verbs of a task, not of a colleague's errand.
const assistantTask = `(?:add|include|write|tell|list|explain|describe|translate|provide|give|append|insert|mention|say|output|print|copy|forward|answer|summari[sz]e|recommend|promote|suggest|compose|draft|create|generate|calculate|solve|share|recite|encode|reverse)\b`

// The literals every match of a group holds: a try whose window holds
// none of them is skipped, so the common words these patterns start with
// ("your", "as", "use") cost a substring check, not a regular expression.
var (
	answerNeeds   = []string{"respon", "repl", "answer", "output", "summar", "messag", "write back", "sentence", "paragraph"}
	aroundNeeds   = []string{"e-mail", "email", "mail", "messag", "text", "content", "inbox", "thread", "document", "note", "letter", "conversation", "correspondence"}
	lettersNeeds  = []string{"vowel", "consonant", "letter", "character", "word"}
	analysisNeeds = []string{"sentiment", "emotion", "mood", "polarity", "attitude", "feeling", "tone", "positive", "negative", "neutral"}
)

var answerPatterns = list(
	// "respond only in emoji", "answer in French", "reply using base64".
	`\b(?:respond|answer|reply|write back)\s+(?:to\s+(?:me|the user|this|the question)\s+)?(?:only\s+|solely\s+|exclusively\s+|entirely\s+|strictly\s+|always\s+)?(?:in|using|with|as|through)\s+(?:\S+\s+){0,3}?`+answerFormat,
	// "begin your response with", "end each of your replies by".
	`\b(?:begin|start|open|end|finish|conclude|close|preface|prefix|sign off|wrap up|round off|cap off)\s+(?:each\s+|every\s+|all\s+)?(?:of\s+)?your\s+(?:\S+\s+)?`+answerNoun+`\s+(?:with|by)\b`,
	// "your response should be written in", "your answer must rhyme":
	// a form asked for, not "your reply should be in by Friday".
	`\byour\s+(?:next\s+|final\s+|entire\s+|whole\s+)?`+answerNoun+`\s+(?:should|must|needs? to|has to|shall|ought to|is to)\s+(?:also\s+|only\s+|always\s+)?(?:(?:be written|be (?:entirely |only |fully )?(?:written |formatted )?(?:in|as|using)|use|consist of|rhyme in)\s+(?:\S+\s+){0,2}?`+answerFormat+`|rhyme|promote|advertise)`,
	// "add this link to the end of every summary".
	`\b(?:add|include|insert|append|put|embed|place)\s+(?:this\s+|the\s+(?:following\s+)?|an?\s+)?(?:\S+\s+)?(?:links?|urls?|hyperlinks?|hashtags?|slogans?|advert\w*|promo\w*|affiliate)\b(?:\s+\S+){0,8}?\s+(?:to|in|into|at|within)\s+(?:the\s+(?:end|start|bottom|top)\s+of\s+)?(?:each|every|all|any|your)\s+(?:\S+\s+)?(?:summar(?:y|ies)|responses?|repl(?:y|ies)|answers?|outputs?|sentences?|paragraphs?)\b`,
	// "promote our app in every answer".
	`\b(?:promote|advertise|recommend|endorse|plug|market|mention|use|add|include|insert|sprinkle)\s+(?:\S+\s+){0,6}?(?:in|within|throughout|at the end of|after)\s+(?:every|each|all|any)\s+(?:(?:of\s+)?your\s+|the\s+)?(?:\S+\s+)?(?:responses?|repl(?:y|ies)|answers?|outputs?|summar(?:y|ies)|sentences?|paragraphs?)\b`,
	// "reverse the words of your reply", "shift every letter of the output".
	`\b(?:reverse|flip|invert|mirror|shift|rotate|encrypt|encipher|scramble)\b(?:\s+\S+){0,8}?\s+(?:of|to|in|for|on|within)\s+(?:the\s+|your\s+)(?:whole\s+|entire\s+)?`+answerNoun+`\b`,
	// "use ROT13 for the reply", "apply a Caesar cipher to your answer".
	`\b(?:use|apply|employ)\s+(?:an?\s+|the\s+)?(?:\S+\s+)?(?:ciphers?|rot ?-?13|atbash|caesar\w*|vigenere|encryption|substitution)\b(?:\s+\S+){0,6}?\s+(?:for|to|in|on)\s+(?:the\s+|your\s+)(?:whole\s+|entire\s+)?`+answerNoun+`\b`,
)

// ruleTextAnalysis names an order to analyse the mail itself, its
// sentiment, tone or mood: the work a program is given, which a person
// writing a mail does not ask of its reader.
const ruleTextAnalysis = "text_analysis"

// analysedText names what such an order points at.
const analysedText = `(?:this|the|that|these|above|following|my)\s+(?:\S+\s+)?(?:e-?mails?|mail|messages?|texts?|passage|content|letter|note|reviews?|tweets?|posts?|sentences?|paragraphs?|statements?|comments?|documents?|writers?|authors?|senders?)\b`

// aroundPatterns: a task set before or after the summary it was asked for.
var aroundPatterns = list(
	// "before summarising this email, translate ...". The pattern starts
	// at the gerund, not at "before" or "as", words too common to try at.
	`\b(?:summari[sz]ing|analy[sz]ing|processing|parsing|classifying|categori[sz]ing|triaging|translating)\s+(?:this|the|my|that|these|those|each|every|any)\s+(?:\S+\s+)?` + mailNoun + `,?\s+(?:please\s+)?(?:also\s+|first\s+|quickly\s+|quietly\s+)?` + assistantTask,
)

// lettersPatterns: letters respelled in whatever the reader writes.
var lettersPatterns = list(
	// "use numbers instead of vowels".
	`\b(?:use|write|spell|represent|show|put)\s+(?:\S+\s+){0,2}?(?:numbers?|digits?|numerals?|symbols?|emojis?)\s+(?:instead of|for|in place of|to replace|as)\s+(?:(?:all|every|each|the)\s+)?(?:\S+\s+)?(?:vowels|consonants|letters|characters|words)\b`,
)

var analysisPatterns = list(
	`\b(?:analy[sz]e|determine|classify|categori[sz]e|identify|evaluate|assess|rate|detect|gauge|judge|score|label|tell me|what is|what's|give me|provide)\s+(?:\S+\s+){0,3}?(?:sentiment|emotional tone|emotions?|mood|polarity|attitude|feelings?|tone)\s+(?:\S+\s+){0,3}?(?:of|in|behind|expressed (?:in|by)|conveyed (?:in|by))\s+` + analysedText,
)
