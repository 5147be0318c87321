import { Banner, List, Text } from "@shopify/polaris";
import { useContext } from "react";
import { LocaleContext, useT } from "../../i18n/translate";
import type { ShownProblem } from "./problem-text";

/** "To fix before buying": each problem once, in the merchant's language, with what to do (no field paths). */
export function ProblemsBanner({ problems }: { problems: readonly ShownProblem[] }) {
  const t = useT();
  const locale = useContext(LocaleContext);
  if (problems.length === 0) return null;
  return (
    <Banner tone="critical" title={t("order.problems.title")}>
      <List>
        {problems.map((problem) => (
          <List.Item key={`${problem.code}|${problem.path}`}>
            <Text as="span" fontWeight="semibold">
              {problem.message[locale]}
            </Text>{" "}
            {problem.fix[locale]}
          </List.Item>
        ))}
      </List>
    </Banner>
  );
}
