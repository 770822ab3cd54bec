package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sextantdev/sextant/internal/suggest"
)

// A command's --help fits in one screen: what the command does, its
// usage, examples and flags, each flag on one short line. The details are
// help topics, "sextant help TOPIC": cobra's additional help topic
// commands (not runnable, only a Long text), named at the end of each
// command's help (its topicsAnnotation) and listed in the root's.

// topicsAnnotation is the cobra.Command annotation that lists, separated
// by spaces, the help topics a command's --help names at its end.
const topicsAnnotation = "sextant-topics"

// withTopics sets the help topics cmd's --help names, and returns cmd.
func withTopics(cmd *cobra.Command, topics ...string) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[topicsAnnotation] = strings.Join(topics, " ")
	return cmd
}

// helpTopic is one subject of "sextant help TOPIC".
type helpTopic struct {
	name, short, long string
}

// helpTopics are the help topics, in the order the root's help lists them;
// global-flags is added by addHelpTopics, from the root's flags.
var helpTopics = []helpTopic{
	{"catalogs", "What --catalog and a catalog PATH take; a catalog's name and namespace", catalogsTopic},
	{"manifests", "What -f takes: the cluster state, its namespace and OperatorGroups", manifestsTopic},
	{"bundles", "What --bundles and --bundle-images take: the bundles' contents", bundlesTopic},
	{"upgrades", "Approval, upgrades in flight, predicted failures and --semver-upgrades", upgradesTopic},
	{"resolve-output", "What resolve prints: text, JSON, -o installplan, --why, -A", resolveOutputTopic},
	{"rollout-output", "What rollout prints as JSON", rolloutOutputTopic},
	{"for", "resolve --for APP: the operators an application's kinds need", forTopic},
	{"v1", "OLM v1: ClusterExtensions, resolve and provides in v1 terms", v1Topic},
	{"check-output", "What check prints: JSON, --baseline, -o markdown, -o sarif, suppressions", checkOutputTopic},
	{"diagrams", "How graph draws bundles, edges, skipRanges and --from's path", diagramsTopic},
	{"openshift-upgrade", "cluster-upgrade: the OpenShift upgrade plan, its rules and its output", clusterUpgradeTopic},
}

// globalFlagsTopic is the help topic of the root's flags.
const globalFlagsTopic = "global-flags"

// addHelpTopics adds the help topics to root, the global-flags topic from
// the flags root has by then, and the help command and the usage text of
// every command.
func addHelpTopics(root *cobra.Command) {
	for _, t := range helpTopics {
		root.AddCommand(&cobra.Command{Use: t.name, Short: t.short, Long: t.long})
	}
	root.AddCommand(&cobra.Command{
		Use:   globalFlagsTopic,
		Short: "The flags every command takes: catalog images, input size limits",
		Long:  globalFlagsText + "\n\n" + strings.TrimRight(root.PersistentFlags().FlagUsages(), " \n") + "\n\n" + globalFlagsDetails,
	})
	root.SetHelpCommand(newHelpCmd(root))
	root.SetUsageFunc(func(c *cobra.Command) error { return writeUsage(c.OutOrStderr(), c) })
}

// newHelpCmd is "sextant help [COMMAND|TOPIC]": cobra's help command, but
// an unknown topic is a usage error with the nearest name.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND|TOPIC]",
		Short: "Help about any command or topic",
		Long:  `Help prints the help of a command (the same as COMMAND --help) or of a help topic.`,
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				root.InitDefaultHelpFlag()
				root.InitDefaultVersionFlag()
				return root.Help()
			}
			c, _, err := root.Find(args)
			if err != nil || c == root {
				var names []string
				for _, sub := range root.Commands() {
					if !sub.Hidden {
						names = append(names, sub.Name())
					}
				}
				msg := fmt.Sprintf("unknown help topic %q", args[0])
				if near := suggest.Nearest(args[0], names); near != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", near)
				}
				return &exitError{code: ExitBadInput, err: fmt.Errorf("%s; commands and topics: %s", msg, strings.Join(names, ", "))}
			}
			c.InitDefaultHelpFlag() // as --help shows it
			return c.Help()
		},
	}
}

// helpWidth is the width help text is written for; a line of a command's
// --help or of a topic is at most that many characters.
const helpWidth = 100

// writeUsage writes the usage part of a command's help (after its Long
// text): usage line, examples, subcommands, flags; for a subcommand, the
// global flags by name only, then the help topics it names; for the root,
// every help topic.
func writeUsage(w io.Writer, c *cobra.Command) error {
	var b strings.Builder
	b.WriteString("Usage:")
	if c.Runnable() {
		b.WriteString("\n  " + c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n  " + c.CommandPath() + " [command]")
	}
	if c.HasExample() {
		b.WriteString("\n\nExamples:\n" + c.Example)
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\nCommands:")
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() || sub.Name() == "help" {
				fmt.Fprintf(&b, "\n  %-*s %s", sub.NamePadding(), sub.Name(), sub.Short)
			}
		}
	}
	if c.HasAvailableLocalFlags() {
		b.WriteString("\n\nFlags:\n" + strings.TrimRight(c.LocalFlags().FlagUsages(), " \n"))
	}
	if c.HasAvailableInheritedFlags() {
		var names []string
		c.InheritedFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, "--"+f.Name)
			}
		})
		b.WriteString("\n\n" + wrap("Global flags: "+strings.Join(names, ", ")+" ("+helpCommand(globalFlagsTopic)+")"))
	}
	if c.HasHelpSubCommands() {
		b.WriteString("\n\nHelp topics (sextant help TOPIC):")
		for _, sub := range c.Commands() {
			if sub.IsAdditionalHelpTopicCommand() {
				fmt.Fprintf(&b, "\n  %-*s %s", sub.NamePadding(), sub.Name(), sub.Short)
			}
		}
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\n" + `Use "` + c.CommandPath() + ` COMMAND --help" for more about a command.`)
	}
	if topics := c.Annotations[topicsAnnotation]; topics != "" {
		b.WriteString("\n" + wrap("Help topics: "+strings.Join(strings.Fields(topics), ", ")+" ("+helpCommand("TOPIC")+")"))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// helpCommand is the command line that prints a help topic.
func helpCommand(topic string) string { return "sextant help " + topic }

// wrap breaks s at spaces into lines of at most helpWidth characters.
func wrap(s string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > helpWidth:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}
